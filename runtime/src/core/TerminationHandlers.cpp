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
constexpr unsigned char kStop = 0; // on the wake pipe: no signal, the thread ends
int wake_pipe[2] = {-1, -1};
std::atomic<bool> signal_seen{false};
pid_t monitored_process = 0;
// Writes the partial profile when a signal came. Never destroyed: a forked child that exits
// holds its parent's thread, which it can neither join nor let std::thread end it for.
std::thread& signal_thread = *new std::thread;

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
  if (byte == kStop) {
    return;
  }
  const int signal = byte;
  monitor.write_partial_profile(signal == SIGINT ? "SIGINT" : "SIGTERM",
                                vclock::Moment::now(monitor.clock()));
  restore_default_action(signal);
  ::kill(::getpid(), signal);
}

// The handlers, and the thread waiting for them, must not outlive libvcmon's code: a plugin
// linked with it may be unloaded (dlclose runs this, as exit does). A detached thread that had
// not yet started when its plugin was unloaded started in unmapped code (runtime_dlopen_run
// ended in SIGSEGV in 6 of 150 runs, 5 at a time).
void stop_signal_thread() {
  if (::getpid() != monitored_process) {
    return; // a forked child: the thread stayed with its parent
  }
  for (const int signal : kSignals) {
    release_signal(signal);
  }
  if (wake_pipe[1] >= 0) {
    // A stop byte, not the end of the pipe: a child forked without exec holds the write end too.
    const unsigned char stop = kStop;
    [[maybe_unused]] const ssize_t written = ::write(wake_pipe[1], &stop, 1);
    ::close(wake_pipe[1]);
    wake_pipe[1] = -1;
  }
  if (signal_thread.joinable()) {
    signal_thread.join();
  }
  if (wake_pipe[0] >= 0) {
    ::close(wake_pipe[0]);
    wake_pipe[0] = -1;
  }
}

void on_exit() {
  Monitor::instance().on_exit();
  stop_signal_thread();
}

} // namespace

void install_termination_handlers(Monitor& monitor) {
  std::atexit(on_exit);
  monitored_process = ::getpid();
  if (::pipe2(wake_pipe, O_CLOEXEC) != 0) {
    std::perror("vcmon: no partial profile on SIGTERM/SIGINT: pipe");
    return;
  }
  signal_thread =
      start_monitor_thread("vcmon-signals", [&monitor] { write_then_reraise(monitor); });
  for (const int signal : kSignals) {
    take_signal(signal, on_signal);
  }
}

} // namespace vcmon::runtime
