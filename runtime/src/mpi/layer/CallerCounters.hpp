// Updates of the counters and bounds that the layer keeps per stamp (StampCounts,
// SenderBounds), and of its handle tables (HandleTable: requests, matched messages, shadows). Only
// threads inside MPI calls write them. Unless the program has MPI_THREAD_MULTIPLE, one thread at a
// time is inside MPI, and a relaxed load and store is a whole update: a locked read-modify-write
// per counter cost about 6% of an 8-byte ping-pong half round trip (0.557 against 0.591 us,
// docs/transparency.md). With MPI_THREAD_MULTIPLE the updates are atomic read-modify-writes.
#pragma once

#include <atomic>
#include <cstdint>
#include <sched.h>

namespace vcmon::runtime::mpi {

class CallerCounters {
public:
  // At MPI_Init, from the thread level MPI provided.
  static void set_concurrent_callers(bool concurrent) { concurrent_ = concurrent; }
  static bool concurrent_callers() { return concurrent_; }

  static void increment(std::atomic<std::uint64_t>& counter) {
    if (concurrent_) {
      counter.fetch_add(1, std::memory_order_relaxed);
    } else {
      counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
  }

  // Raises `slot` to `value`; true when it grew.
  static bool raise(std::atomic<std::uint64_t>& slot, std::uint64_t value) {
    std::uint64_t known = slot.load(std::memory_order_relaxed);
    if (!concurrent_) {
      if (known >= value) {
        return false;
      }
      slot.store(value, std::memory_order_relaxed);
      return true;
    }
    while (known < value) {
      if (slot.compare_exchange_weak(known, value, std::memory_order_relaxed)) {
        return true;
      }
    }
    return false;
  }

private:
  static inline bool concurrent_ = true;
};

// Holds `lock` for a scope while several threads may be in MPI; otherwise does nothing.
// Re-entrant: a thread that holds it already (a decision made under the deferred receives'
// lock answers a state request, whose description looks the receives up again) goes on, as
// it does with one thread in MPI, where no lock is taken at all. Taking it again hung every
// wildcard MPI_Irecv + MPI_Wait at 3 ranks under MPI_THREAD_MULTIPLE.
class CallerLock {
public:
  explicit CallerLock(std::atomic_flag& lock)
      : lock_(CallerCounters::concurrent_callers() && !held(lock) ? &lock : nullptr) {
    if (lock_ != nullptr) {
      while (lock_->test_and_set(std::memory_order_acquire)) {
        sched_yield();
      }
      outer_ = innermost_;
      innermost_ = this;
    }
  }
  ~CallerLock() {
    if (lock_ != nullptr) {
      innermost_ = outer_;
      lock_->clear(std::memory_order_release);
    }
  }
  CallerLock(const CallerLock&) = delete;
  CallerLock& operator=(const CallerLock&) = delete;

private:
  // Whether this thread holds `lock` (the locks it holds at once are few).
  static bool held(const std::atomic_flag& lock) {
    for (const CallerLock* guard = innermost_; guard != nullptr; guard = guard->outer_) {
      if (guard->lock_ == &lock) {
        return true;
      }
    }
    return false;
  }

  std::atomic_flag* lock_;
  const CallerLock* outer_ = nullptr;
  static inline thread_local const CallerLock* innermost_ = nullptr;
};

} // namespace vcmon::runtime::mpi
