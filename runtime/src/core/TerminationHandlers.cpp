#include "core/TerminationHandlers.hpp"

#include "core/Monitor.hpp"
#include "core/MonitorThread.hpp"
#include "core/SignalDispositions.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <thread>
#include <unistd.h>

namespace vcmon::runtime {
namespace {

constexpr int kSignals[] = {SIGTERM, SIGINT};
int wake_pipe[2] = {-1, -1};
std::atomic<bool> signal_seen{false};
pid_t monitored_process = 0;

void on_signal(int signal) {
  // A child the program forked inherits the handler, not the thread that writes the profile;
  // the pipe it shares with its parent would end the parent instead: the child ends as it
  // would without vcmon.
  if (::getpid() != monitored_process) {
    restore_default_action(signal);
    std::raise(signal);
    return;
  }
  if (signal_seen.exchange(true)) {
    // A second signal while the profile is being written: end now.
    restore_default_action(signal);
    std::raise(signal);
    return;
  }
  const auto byte = static_cast<unsigned char>(signal);
  [[maybe_unused]] const ssize_t written = ::write(wake_pipe[1], &byte, 1);
}

void write_then_reraise(Monitor& monitor) {
  unsigned char byte = 0;
  ssize_t got = 0;
  while ((got = ::read(wake_pipe[0], &byte, 1)) != 1) {
    if (got == 0 || errno != EINTR) {
      return;
    }
  }
  const int signal = byte;
  monitor.write_partial_profile(signal == SIGINT ? "SIGINT" : "SIGTERM",
                                vclock::Moment::now(monitor.clock()));
  restore_default_action(signal);
  ::kill(::getpid(), signal);
}

void on_exit() {
  Monitor::instance().on_exit();
}

} // namespace

void install_termination_handlers(Monitor& monitor) {
  std::atexit(on_exit);
  monitored_process = ::getpid();
  if (::pipe2(wake_pipe, O_CLOEXEC) != 0) {
    std::perror("vcmon: no partial profile on SIGTERM/SIGINT: pipe");
    return;
  }
  start_monitor_thread("vcmon-signals", [&monitor] { write_then_reraise(monitor); }).detach();
  for (const int signal : kSignals) {
    take_signal(signal, on_signal);
  }
}

} // namespace vcmon::runtime
