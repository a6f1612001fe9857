#include "mpi/control/RunningAnswerer.hpp"

#include "core/Log.hpp"
#include "core/MonitorThread.hpp"
#include "mpi/layer/RunningAnswers.hpp"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace vcmon::runtime::mpi {
namespace {

bool membarrier(int command) {
  return ::syscall(SYS_membarrier, command, 0, 0) == 0;
}

} // namespace

void RunningAnswerer::start(Monitor& monitor, ControlChannel& control) {
  if (thread_.joinable() || !RunningAnswers::attached()) {
    return;
  }
  if (!membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED)) {
    log_line(LogLevel::Debug,
             "rank %d: no membarrier: a rank running outside MPI answers no state request",
             monitor.world_rank());
    return;
  }
  stopping_.store(false, std::memory_order_relaxed);
  thread_ =
      start_monitor_thread("vcmon-answerer", [this, &monitor, &control] { run(monitor, control); });
}

void RunningAnswerer::stop() {
  if (!thread_.joinable()) {
    return;
  }
  stopping_.store(true, std::memory_order_release);
  RunningAnswers::wake_own();
  thread_.join();
}

void RunningAnswerer::run(Monitor& monitor, ControlChannel& control) {
  for (;;) {
    const std::uint32_t seen = RunningAnswers::bell();
    if (stopping_.load(std::memory_order_acquire)) {
      return;
    }
    if (RunningAnswers::asked()) {
      answer(monitor, control);
    }
    RunningAnswers::wait_for_ring(seen);
  }
}

void RunningAnswerer::answer(Monitor& monitor, ControlChannel& control) {
  vclock::VirtualClock& clock = monitor.clock();
  const std::uint64_t start_ns = clock.source().now_ns();
  const std::optional<std::uint64_t> shown = control.clock_beside(monitor);
  // See the top of RunningAnswerer.hpp: the counts are read after every thread of the process
  // has passed a full barrier since the clock was shown. If that fails, nothing is promised.
  const bool fenced = shown && membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
  StampProtocol& stamps = control.stamps();
  const std::uint64_t answers = RunningAnswers::answer_asks(
      fenced ? *shown : 0, [&](int rank) { return stamps.counts().sent_to(rank); });
  monitor.counters().control_messages.fetch_add(answers, std::memory_order_relaxed);
  clock.charge_beside(clock.source().now_ns() - start_ns + monitor.action_cost_ns());
}

} // namespace vcmon::runtime::mpi
