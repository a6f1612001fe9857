// A fixed-capacity map from MPI handles (MPICH: ints) to small records: open addressing,
// preallocated, O(1) (at most kMaxProbes slots looked at), no allocation and no lock. Keys are
// claimed with a compare-and-swap, so threads of an MPI_THREAD_MULTIPLE program may insert
// concurrently; a key is only ever erased by the thread that completes or frees its handle.
//
// The slots are one calloc'd block: a large block comes as fresh zero pages from the kernel, so
// a table costs memory only where it was used (a 16384-request table is 2.2 MB, of which a
// program that keeps a few requests in flight touches a few pages), and making one writes
// nothing. Keys are plain ints read and written through std::atomic_ref (zero is kEmpty);
// a value is constructed when it is inserted.
#pragma once

#include "mpi/layer/CallerCounters.hpp"

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>

namespace vcmon::runtime::mpi {

template <typename Value, std::size_t Capacity> class HandleTable {
  static_assert(std::has_single_bit(Capacity), "capacity must be a power of two");
  // Inserting constructs over an erased slot's value without destroying it.
  static_assert(std::is_trivially_destructible_v<Value>);

public:
  // How far an insert looks from a handle's home slot for a free one, and so how far a lookup
  // looks for the handle: a bound, so that a table nearly full, or full of erased slots, costs
  // a lookup at most this many probes (a full 16384-slot table once cost a completion call
  // 16384 probes per request it was given, and 20 000 requests in flight hung the program).
  // An insert that finds no free slot within it is refused, as by a full table.
  static constexpr std::size_t kMaxProbes = Capacity < 64 ? Capacity : 64;

  // 0 is never an MPICH handle (its kind bits are "invalid"); the two markers are never
  // valid handles either (their object-kind bits name no object).
  static constexpr std::int32_t kEmpty = 0;
  static constexpr std::int32_t kErased = -1;
  static constexpr std::int32_t kClaimed = -2;

  HandleTable() : slots_(static_cast<Slots*>(std::calloc(1, sizeof(Slots)))) {
    if (slots_ == nullptr) {
      throw std::bad_alloc();
    }
  }

  // Stores `value` under `handle`; nullptr when no slot within kMaxProbes of its home is free.
  Value* insert(std::int32_t handle, const Value& value) {
    for (std::size_t probe = 0, i = home(handle); probe < kMaxProbes; ++probe, i = next(i)) {
      std::int32_t key = key_at(i).load(std::memory_order_relaxed);
      if ((key == kEmpty || key == kErased) && claim(key_at(i), key)) {
        Value* stored = std::construct_at(&slots_->values[i], value);
        key_at(i).store(handle, std::memory_order_release);
        return stored;
      }
    }
    return nullptr;
  }

  Value* find(std::int32_t handle) {
    const std::optional<std::size_t> i = index_of(handle);
    return i ? &slots_->values[*i] : nullptr;
  }

  void erase(std::int32_t handle) {
    if (const std::optional<std::size_t> i = index_of(handle)) {
      key_at(*i).store(kErased, std::memory_order_release);
    }
  }
  // Erases the entry `value` (one this table returned), found or hidden.
  void erase_entry(Value& value) {
    key_at(slot_of(value)).store(kErased, std::memory_order_release);
  }

  // Hides the entry `value` from lookups and inserts, keeping it: MPI may give the handle of a
  // request it completes to another thread's new request before this thread is done with the
  // completion (MPI_THREAD_MULTIPLE), which then must not find or overwrite this entry.
  void hide(Value& value) { key_at(slot_of(value)).store(kClaimed, std::memory_order_release); }
  // Files a hidden entry under `handle` again (the request lives on).
  void show(std::int32_t handle, Value& value) {
    key_at(slot_of(value)).store(handle, std::memory_order_release);
  }

  // The slot where the probes for `handle` start. Fibonacci hashing spreads MPICH's
  // consecutive handle indices over the table.
  static std::size_t home(std::int32_t handle) {
    return (static_cast<std::uint32_t>(handle) * 2654435769u) >> (32 - std::countr_zero(Capacity));
  }

  // Whether a stored value satisfies `predicate` (a scan of the whole table: rare calls only).
  template <typename Predicate> bool any_of(Predicate&& predicate) const {
    for (std::size_t i = 0; i < Capacity; ++i) {
      const std::int32_t key = key_at(i).load(std::memory_order_acquire);
      if (key != kEmpty && key != kErased && key != kClaimed && predicate(slots_->values[i])) {
        return true;
      }
    }
    return false;
  }

private:
  // Takes a free slot whose key read `key`. A compare-and-swap only when several threads may
  // insert at once: a locked instruction right after MPI wrote a message into shared memory
  // waits for that store (about 20 ns, on every Isend and Irecv).
  static bool claim(std::atomic_ref<std::int32_t> slot, std::int32_t key) {
    if (!CallerCounters::concurrent_callers()) {
      slot.store(kClaimed, std::memory_order_relaxed);
      return true;
    }
    return slot.compare_exchange_strong(key, kClaimed, std::memory_order_acquire);
  }

  std::optional<std::size_t> index_of(std::int32_t handle) const {
    for (std::size_t probe = 0, i = home(handle); probe < kMaxProbes; ++probe, i = next(i)) {
      const std::int32_t key = key_at(i).load(std::memory_order_acquire);
      if (key == handle) {
        return i;
      }
      if (key == kEmpty) {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  std::size_t slot_of(const Value& value) const {
    return static_cast<std::size_t>(&value - slots_->values);
  }

  static std::size_t next(std::size_t i) { return (i + 1) & (Capacity - 1); }

  std::atomic_ref<std::int32_t> key_at(std::size_t i) const {
    return std::atomic_ref<std::int32_t>(slots_->keys[i]);
  }

  struct Slots {
    std::int32_t keys[Capacity];
    Value values[Capacity];
  };
  struct Free {
    void operator()(Slots* slots) const { std::free(slots); }
  };
  const std::unique_ptr<Slots, Free> slots_;
};

} // namespace vcmon::runtime::mpi
