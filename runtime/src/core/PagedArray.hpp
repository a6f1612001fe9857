// An array that grows by fixed pages which never move, so readers index it without a lock
// while pages are added: O(1) access, allocation only when a page is first needed.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace vcmon::runtime {

template <typename T, unsigned PageBits = 8, std::size_t MaxPages = 4096> class PagedArray {
public:
  static constexpr std::size_t kPageSize = std::size_t{1} << PageBits;
  static constexpr std::size_t kCapacity = kPageSize * MaxPages;

  PagedArray() = default;
  PagedArray(const PagedArray&) = delete;
  PagedArray& operator=(const PagedArray&) = delete;
  ~PagedArray() {
    for (std::atomic<T*>& page : pages_) {
      delete[] page.load(std::memory_order_relaxed);
    }
  }

  // The element, or nullptr when its page does not exist yet (or `index` is past capacity).
  T* find(std::size_t index) const {
    if (index >= kCapacity) {
      return nullptr;
    }
    T* page = pages_[index >> PageBits].load(std::memory_order_acquire);
    return page != nullptr ? &page[index & (kPageSize - 1)] : nullptr;
  }

  // The element, adding its page when missing; nullptr only past capacity. Pages are added
  // by one writer at a time (the owning thread, or under the registry's lock).
  T* get(std::size_t index) {
    if (T* element = find(index)) {
      return element;
    }
    if (index >= kCapacity) {
      return nullptr;
    }
    T* page = new T[kPageSize]();
    pages_[index >> PageBits].store(page, std::memory_order_release);
    return &page[index & (kPageSize - 1)];
  }

  // Adds the pages of elements [0, n), so that later accesses to them never allocate.
  void reserve(std::size_t n) {
    for (std::size_t i = 0; i < n && i < kCapacity; i += kPageSize) {
      get(i);
    }
  }

private:
  std::array<std::atomic<T*>, MaxPages> pages_{};
};

} // namespace vcmon::runtime
