#include "core/SignalDispositions.hpp"

#include <atomic>
#include <csignal>

// glibc exports both (GLIBC_2.2.5); its headers no longer declare bsd_signal.
extern "C" int __sigaction(int, const struct sigaction*, struct sigaction*);
extern "C" sighandler_t bsd_signal(int, sighandler_t);

namespace vcmon::runtime {
namespace {

// Whether vcmon's handler is installed for the signal, which the program then sees unset.
std::atomic<bool> taken[NSIG];

// libc's own, under the names glibc exports beside the ones libvcmon takes over: no dlsym,
// which a sanitizer's start-up, calling sigaction before anything else, cannot afford.
int libc_sigaction(int signal, const struct sigaction* action, struct sigaction* old) {
  return ::__sigaction(signal, action, old);
}

sighandler_t libc_signal(int signal, sighandler_t handler) {
  return ::bsd_signal(signal, handler); // glibc's signal() itself
}

// `handler` with no signal masked beside the signal itself, and `flags`.
struct sigaction action_of(sighandler_t handler, int flags) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = flags;
  return action;
}

bool is_taken(int signal) {
  return signal > 0 && signal < NSIG && taken[signal].load(std::memory_order_acquire);
}

// Installs what the program asks for in place of vcmon's handler.
int give_back(int signal, const struct sigaction& action) {
  const int rc = libc_sigaction(signal, &action, nullptr);
  if (rc == 0) {
    taken[signal].store(false, std::memory_order_release);
  }
  return rc;
}

} // namespace

bool take_signal(int signal, void (*handler)(int)) {
  struct sigaction current {};
  if (libc_sigaction(signal, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
      (current.sa_flags & SA_SIGINFO) != 0) {
    return false;
  }
  // The program's calls go on while the profile is written: unmonitored, this signal would
  // have ended them, not failed them with EINTR.
  const struct sigaction action = action_of(handler, SA_RESTART);
  taken[signal].store(true, std::memory_order_release);
  if (libc_sigaction(signal, &action, nullptr) != 0) {
    taken[signal].store(false, std::memory_order_release);
    return false;
  }
  return true;
}

void restore_default_action(int signal) {
  const struct sigaction action = action_of(SIG_DFL, 0);
  libc_sigaction(signal, &action, nullptr);
  taken[signal].store(false, std::memory_order_release);
}

void release_signal(int signal) {
  if (is_taken(signal)) {
    restore_default_action(signal);
  }
}

} // namespace vcmon::runtime

using vcmon::runtime::action_of;
using vcmon::runtime::give_back;
using vcmon::runtime::is_taken;
using vcmon::runtime::libc_sigaction;
using vcmon::runtime::libc_signal;

// What the program calls instead of libc's (libvcmon.map exports them).
extern "C" int sigaction(int signal, const struct sigaction* action, struct sigaction* old) {
  if (!is_taken(signal)) {
    return libc_sigaction(signal, action, old);
  }
  if (action != nullptr) {
    if (const int rc = give_back(signal, *action); rc != 0) {
      return rc;
    }
  }
  if (old != nullptr) {
    *old = action_of(SIG_DFL, 0); // what it was before vcmon took it
  }
  return 0;
}

extern "C" sighandler_t signal(int signal, sighandler_t handler) {
  if (!is_taken(signal)) {
    return libc_signal(signal, handler);
  }
  // glibc's signal(): BSD semantics, the signal blocked while its handler runs.
  return give_back(signal, action_of(handler, SA_RESTART)) == 0 ? SIG_DFL : SIG_ERR;
}
