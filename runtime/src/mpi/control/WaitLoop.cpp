#include "mpi/control/WaitPolicy.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <sched.h>

namespace vcmon::runtime::mpi {

WaitLoop::WaitLoop(Monitor& monitor, ControlChannel& control, const BlockedCall& call)
    : WaitLoop(monitor, control, call, vclock::Moment::now(monitor.clock()).rt) {}

WaitLoop::WaitLoop(Monitor& monitor, ControlChannel& control, const BlockedCall& call,
                   std::uint64_t start_rt)
    : monitor_(monitor), control_(control), call_(call),
      detector_(monitor, control, call, start_rt), spin_end_rt_(start_rt + kSpinNs),
      next_service_rt_(spin_end_rt_) {}

void WaitLoop::tick() {
  // While spinning, the clock is read only every few polls: a poll is a few dozen ns.
  if (++polls_ % kPollsPerClockRead != 0) {
    return;
  }
  vclock::VirtualClock& clock = monitor_.clock();
  const std::uint64_t start = clock.source().now_ns();
  const std::uint64_t now_rt = clock.real_at(start);
  if (now_rt < spin_end_rt_) {
    return;
  }
  if (!registration_) {
    registration_.emplace(control_.waits(), call_);
  }
  if (now_rt < next_service_rt_) {
    sched_yield();
    return;
  }
  next_service_rt_ = now_rt + kServiceNs;
  // Waiting between polls is the program's own waiting; only work done for others, and the
  // deadlock check, is the monitor's.
  bool worked = control_.serve();
  worked = control_.progress_waiting(monitor_) || worked;
  if (monitor_.config().deadlock == DeadlockMode::NullMessage) {
    worked = announcer_.announce(monitor_, control_, call_, now_rt) || worked;
  }
  if (detector_.due(now_rt)) {
    detector_.check();
    worked = true;
  }
  if (worked) {
    clock.charge_caller(clock.source().now_ns() - start + monitor_.action_cost_ns());
  }
  sched_yield();
}

} // namespace vcmon::runtime::mpi
