#include "mpi/ControlChannel.hpp"
#include "mpi/Moment.hpp"
#include "mpi/WaitPolicy.hpp"

#include <sched.h>

namespace vcmon::runtime::mpi {

WaitLoop::WaitLoop(Monitor& monitor, const BlockedCall& call)
    : monitor_(monitor), call_(call), registration_(call),
      detector_(monitor, Moment::now(monitor.clock()).rt) {}

void WaitLoop::tick() {
  vclock::VirtualClock& clock = monitor_.clock();
  const std::uint64_t start = clock.source().now_ns();
  const std::uint64_t now_rt = clock.real_at(start);
  // Waiting between polls is the program's own waiting; only work done for others, and the
  // deadlock check, is the monitor's.
  bool worked = ControlChannel::serve(monitor_);
  if (monitor_.config().deadlock == DeadlockMode::NullMessage) {
    worked = announcer_.announce(monitor_, call_, now_rt) || worked;
  }
  if (detector_.due(now_rt)) {
    detector_.check();
    worked = true;
  }
  if (worked) {
    clock.charge(clock.source().now_ns() - start + monitor_.action_cost_ns());
  }
  sched_yield();
}

} // namespace vcmon::runtime::mpi
