// Real deadlocks: a call blocked longer than VCMON_DEADLOCK_TIMEOUT_MS asks the processes it
// waits for, and those they wait for, for their states (CycleBreaker with no candidate). Elapsed
// time only decides when to look (the period then doubles, up to 8 timeouts); a deadlock is
// declared only on proof (docs/deadlock.md, "What the detector proves, and what it cannot see"):
// the same ranks found deadlocked by two checks a grace period apart, each blocked in the same call
// throughout (WaitRegistry's generation), every message sent to a deadlocked rank by those it waits
// for already arrived (stamp counts), and this rank's own call still unsatisfied. The lowest
// deadlocked rank then reports every deadlocked rank's MPI call, site and partners and the cycle,
// writes its partial profile and ends the job with MPI_Abort.
#pragma once

#include "mpi/control/BlockedCall.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/stamps/StampProtocol.hpp"

#include "core/Monitor.hpp"

#include <cstdint>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) DeadlockDetector {
public:
  // `control`: the process's channel, over which it asks (and its stamp protocol).
  DeadlockDetector(Monitor& monitor, ControlChannel& control, const BlockedCall& call,
                   std::uint64_t start_rt);

  // Whether the wait has lasted long enough for a (next) check.
  bool due(std::uint64_t now_rt) const { return now_rt >= next_check_rt_; }
  // Checks; returns only when the program is not proven deadlocked (or another rank of the
  // deadlock reports it).
  void check();

private:
  Monitor& monitor_;
  ControlChannel& control_;
  StampProtocol& stamps_;
  const BlockedCall& call_;
  std::uint64_t next_check_rt_;
  std::uint64_t period_ns_;
};

} // namespace vcmon::runtime::mpi
