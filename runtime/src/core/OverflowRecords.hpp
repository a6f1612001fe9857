// Keyed records that did not fit a site's inline slots: one preallocated open-addressing
// table shared by all threads, claimed with compare-and-swap. Bounded probing keeps it O(1);
// when it is full the event is counted as dropped, never allocated.
#pragma once

#include "core/RecordSlots.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace vcmon::runtime {

class __attribute__((visibility("hidden"))) OverflowRecords {
public:
  struct Entry {
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    std::atomic<std::uint64_t> key{kEmpty}; // site << 32 | record key
    std::atomic<std::uint64_t> count{0};
    std::atomic<std::uint64_t> time_ns{0};
    std::atomic<std::uint64_t> sync_delay_ns{0};
    std::atomic<std::uint64_t> bytes{0};
    std::atomic<std::uint64_t> untimed{0}; // proc records only
    MessageSizeCounters sizes;             // com records only
  };

  explicit OverflowRecords(std::uint32_t capacity); // a power of two

  // The entry of (site, key), claiming a free one; nullptr (and one more dropped event)
  // when the table is full along the probe sequence.
  Entry* find_or_claim(std::uint32_t site, std::uint32_t key);

  std::size_t capacity() const { return mask_ + 1; }
  const Entry& entry(std::size_t index) const { return entries_[index]; }
  std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

private:
  static constexpr unsigned kMaxProbes = 32;
  std::unique_ptr<Entry[]> entries_;
  std::size_t mask_;
  std::atomic<std::uint64_t> dropped_{0};
};

} // namespace vcmon::runtime
