// The stamps' lock: filing, the inboxes and the claims, while several threads may be in MPI
// (MPI_THREAD_MULTIPLE). One per process, in its StampProtocol; ShadowCommunicators takes it
// when it adds or removes a shadow stamps are filed to.
#pragma once

#include "mpi/layer/CallerCounters.hpp"

#include <atomic>
#include <sched.h>

namespace vcmon::runtime::mpi {

class StampLock {
public:
  // Holds `lock` for a scope. Any thread may file stamps into any communicator's inbox, so the
  // layer reads an inbox only under it; re-entrant, so that a reader may call the protocol's
  // functions inside. Nothing unless several threads may be in MPI.
  // With Wait::No it gives up at once when another thread holds the lock (missed()): a poll
  // may find nothing this time instead of queueing behind another thread's decision, which
  // with more threads than cores costs each poll several time slices.
  enum class Wait { Yes, No };
  class Hold {
  public:
    explicit Hold(StampLock& lock, Wait wait = Wait::Yes)
        : lock_(CallerCounters::concurrent_callers() && held_ != &lock ? &lock : nullptr) {
      if (lock_ != nullptr) {
        while (lock_->flag_.test_and_set(std::memory_order_acquire)) {
          if (wait == Wait::No) {
            lock_ = nullptr;
            missed_ = true;
            return;
          }
          sched_yield();
        }
        outer_ = held_;
        held_ = lock_;
      }
    }
    ~Hold() {
      if (lock_ != nullptr) {
        held_ = outer_;
        lock_->flag_.clear(std::memory_order_release);
      }
    }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

    bool missed() const { return missed_; }

  private:
    StampLock* lock_;
    const StampLock* outer_ = nullptr;
    bool missed_ = false;
  };

private:
  std::atomic_flag flag_;
  // The lock this thread holds (its innermost, when a test runs several processes' protocols
  // on one thread): a thread's, not a process's.
  static inline thread_local const StampLock* held_ = nullptr;
};

} // namespace vcmon::runtime::mpi
