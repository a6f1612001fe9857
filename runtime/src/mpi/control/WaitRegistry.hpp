// Which blocking calls this process's threads wait in (docs/runtime.md, "Threads"): a blocked
// process answers state requests, and with MPI_THREAD_MULTIPLE the thread that answers need not be
// the one that waits. Each waiting thread holds a slot for as long as its call waits. A reader pins
// a slot before it describes the call registered there, and the waiting thread leaves only once no
// reader holds it, so a description never reads a call whose stack frame is gone. The process's
// control channel holds its registry (ControlChannel::waits()).
#pragma once

#include "mpi/control/BlockedCall.hpp"

#include "vcmon/deadlock/ProcessState.hpp"

#include <array>
#include <atomic>
#include <cstdint>

namespace vcmon::runtime::mpi {

class WaitRegistry {
public:
  WaitRegistry() = default;
  WaitRegistry(const WaitRegistry&) = delete;
  WaitRegistry& operator=(const WaitRegistry&) = delete;

  // Registers `call` in `registry` as what the calling thread waits in, for the scope's
  // lifetime.
  class Registration {
  public:
    Registration(WaitRegistry& registry, const BlockedCall& call);
    ~Registration();
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

  private:
    WaitRegistry& registry_;
    int slot_; // -1: every slot taken; this thread's wait stays unseen (the process runs)
  };

  // Describes this process from its waiting calls into `state` (activity, waits_on, clock_ns,
  // present_arrival_ns, collective) and `place`, and returns true, when it is blocked: when
  // `threads` threads may still call MPI and every one of them waits. Several waiting threads
  // make one OR-wait on the union of their partners from the earliest of their clocks: the
  // process resumes once any thread does, so that bound is never above the truth. A call that
  // is already satisfied counts as running. False (state untouched) otherwise.
  bool describe(int threads, deadlock::ProcessState& state, WaitPlace* place) const;

  // The call the calling thread waits in, or nullptr.
  const BlockedCall* own_call() const;

  // Whether any thread of this process waits in a registered call.
  bool any_waiting() const { return waiting_.load(std::memory_order_acquire) > 0; }

  // Changes whenever a thread starts or stops waiting: equal at two moments, with the process
  // blocked at both, means every thread waited in the same call throughout.
  std::uint64_t generation() const { return changes_.load(std::memory_order_acquire); }

private:
  struct Slot {
    std::atomic<bool> claimed{false};
    std::atomic<const BlockedCall*> call{nullptr};
    std::atomic<unsigned> readers{0};
  };
  // More threads waiting at once than this leave the process reported as running: never a
  // false deadlock, at worst a later wildcard decision.
  static constexpr int kSlots = 256;

  Slot& slot(int i) const { return slots_[static_cast<std::size_t>(i)]; }

  // Mutable: a reader pins a slot (counts itself in) to describe it.
  mutable std::array<Slot, kSlots> slots_;
  std::atomic<int> waiting_{0};
  std::atomic<std::uint64_t> changes_{0};
};

} // namespace vcmon::runtime::mpi
