// A fixed-capacity map from MPI handles (MPICH: ints) to small records: open addressing,
// preallocated, O(1), no allocation and no lock. Keys are claimed with a compare-and-swap, so
// threads of an MPI_THREAD_MULTIPLE program may insert concurrently; a key is only ever
// erased by the thread that completes or frees its handle.
#pragma once

#include "mpi/CallerCounters.hpp"

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace vcmon::runtime::mpi {

template <typename Value, std::size_t Capacity> class HandleTable {
  static_assert(std::has_single_bit(Capacity), "capacity must be a power of two");

public:
  // 0 is never an MPICH handle (its kind bits are "invalid"); the two markers are never
  // valid handles either (their object-kind bits name no object).
  static constexpr std::int32_t kEmpty = 0;
  static constexpr std::int32_t kErased = -1;
  static constexpr std::int32_t kClaimed = -2;

  // Stores `value` under `handle`; nullptr when the table is full.
  Value* insert(std::int32_t handle, const Value& value) {
    for (std::size_t probe = 0, i = home(handle); probe < Capacity; ++probe, i = next(i)) {
      Slot& slot = slots_[i];
      std::int32_t key = slot.key.load(std::memory_order_relaxed);
      if ((key == kEmpty || key == kErased) && claim(slot, key)) {
        slot.value = value;
        slot.key.store(handle, std::memory_order_release);
        return &slot.value;
      }
    }
    return nullptr;
  }

  Value* find(std::int32_t handle) {
    Slot* slot = find_slot(handle);
    return slot != nullptr ? &slot->value : nullptr;
  }

  void erase(std::int32_t handle) {
    if (Slot* slot = find_slot(handle)) {
      slot->key.store(kErased, std::memory_order_release);
    }
  }

  // Whether a stored value satisfies `predicate` (a scan of the whole table: rare calls only).
  template <typename Predicate> bool any_of(Predicate&& predicate) const {
    for (const Slot& slot : slots_) {
      const std::int32_t key = slot.key.load(std::memory_order_acquire);
      if (key != kEmpty && key != kErased && key != kClaimed && predicate(slot.value)) {
        return true;
      }
    }
    return false;
  }

private:
  struct Slot {
    std::atomic<std::int32_t> key{kEmpty};
    Value value{};
  };

  // Takes a free slot whose key read `key`. A compare-and-swap only when several threads may
  // insert at once: a locked instruction right after MPI wrote a message into shared memory
  // waits for that store (about 20 ns, on every Isend and Irecv).
  static bool claim(Slot& slot, std::int32_t key) {
    if (!CallerCounters::concurrent_callers()) {
      slot.key.store(kClaimed, std::memory_order_relaxed);
      return true;
    }
    return slot.key.compare_exchange_strong(key, kClaimed, std::memory_order_acquire);
  }

  Slot* find_slot(std::int32_t handle) {
    for (std::size_t probe = 0, i = home(handle); probe < Capacity; ++probe, i = next(i)) {
      const std::int32_t key = slots_[i].key.load(std::memory_order_acquire);
      if (key == handle) {
        return &slots_[i];
      }
      if (key == kEmpty) {
        return nullptr;
      }
    }
    return nullptr;
  }

  // Fibonacci hashing spreads MPICH's consecutive handle indices over the table.
  static std::size_t home(std::int32_t handle) {
    return (static_cast<std::uint32_t>(handle) * 2654435769u) >> (32 - std::countr_zero(Capacity));
  }
  static std::size_t next(std::size_t i) { return (i + 1) & (Capacity - 1); }

  std::array<Slot, Capacity> slots_{};
};

} // namespace vcmon::runtime::mpi
