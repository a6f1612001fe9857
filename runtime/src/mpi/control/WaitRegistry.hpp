// Which blocking calls this process's threads wait in (docs/runtime.md, "Threads"): a blocked
// process answers state requests, and with MPI_THREAD_MULTIPLE the thread that answers need not be
// the one that waits. Each waiting thread holds a slot for as long as its call waits. A reader pins
// a slot before it describes the call registered there, and the waiting thread leaves only once no
// reader holds it, so a description never reads a call whose stack frame is gone.
#pragma once

#include "mpi/control/BlockedCall.hpp"

#include "vcmon/deadlock/ProcessState.hpp"

#include <cstdint>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) WaitRegistry {
public:
  // Registers `call` as what the calling thread waits in, for the scope's lifetime.
  class Registration {
  public:
    explicit Registration(const BlockedCall& call);
    ~Registration();
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

  private:
    int slot_; // -1: every slot taken; this thread's wait stays unseen (the process runs)
  };

  // Describes this process from its waiting calls into `state` (activity, waits_on, clock_ns,
  // present_arrival_ns, collective) and `place`, and returns true, when it is blocked: when
  // `threads` threads may still call MPI and every one of them waits. Several waiting threads
  // make one OR-wait on the union of their partners from the earliest of their clocks: the
  // process resumes once any thread does, so that bound is never above the truth. A call that
  // is already satisfied counts as running. False (state untouched) otherwise.
  static bool describe(int threads, deadlock::ProcessState& state, WaitPlace* place);

  // The call the calling thread waits in, or nullptr.
  static const BlockedCall* own_call();

  // Changes whenever a thread starts or stops waiting: equal at two moments, with the process
  // blocked at both, means every thread waited in the same call throughout.
  static std::uint64_t generation();
};

} // namespace vcmon::runtime::mpi
