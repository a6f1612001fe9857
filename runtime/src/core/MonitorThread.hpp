#pragma once

#include <csignal>
#include <pthread.h>
#include <thread>
#include <utility>

namespace vcmon::runtime {

// Starts a thread of the monitor's own, named `name` (at most 15 characters: debuggers and
// /proc/PID/task/*/comm show it), that blocks every signal. A signal sent to the process goes to
// any thread that does not block it: a program that blocks a signal in its threads to take it
// with sigwait or signalfd would otherwise have it taken here, by the default action (ending the
// process) or by its handler on a thread it never made (docs/pmpi.md, "Threads of the monitor").
template <typename Body> std::thread start_monitor_thread(const char* name, Body&& body) {
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  // A new thread inherits its creator's mask; the creator's is restored at once.
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  struct RestoreMask {
    const sigset_t& mask;
    ~RestoreMask() { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }
  } restore{previous};
  std::thread thread(std::forward<Body>(body));
  pthread_setname_np(thread.native_handle(), name);
  return thread;
}

} // namespace vcmon::runtime
