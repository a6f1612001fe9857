// Real deadlocks (issue 5): a call blocked longer than VCMON_DEADLOCK_TIMEOUT_MS asks the
// processes it waits for, and those they wait for, for their states (CycleBreaker with no
// candidate). When nothing can ever end its wait, it confirms once after a grace period
// (snapshots are taken at different instants; a message may have been in flight); the lowest
// deadlocked rank then reports every deadlocked rank's MPI call, site and partners and the
// cycle, writes its partial profile and ends the job with MPI_Abort.
#pragma once

#include "core/Monitor.hpp"

#include <cstdint>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) DeadlockDetector {
public:
  DeadlockDetector(Monitor& monitor, std::uint64_t start_rt);

  // Whether the wait has lasted long enough for a (next) check.
  bool due(std::uint64_t now_rt) const { return now_rt >= next_check_rt_; }
  // Checks; returns only when the program is not deadlocked (or another rank reports it).
  void check();

private:
  Monitor& monitor_;
  std::uint64_t next_check_rt_;
  std::uint64_t period_ns_;
};

} // namespace vcmon::runtime::mpi
