#include "core/SignalDispositions.hpp"

#include <atomic>
#include <csignal>
#include <dlfcn.h>

namespace vcmon::runtime {
namespace {

using Sigaction = int (*)(int, const struct sigaction*, struct sigaction*);
using Signal = sighandler_t (*)(int, sighandler_t);

// Whether vcmon's handler is installed for the signal, which the program then sees unset.
std::atomic<bool> taken[NSIG];

// libc's functions, past libvcmon's. Found at first use, which may come from a library's
// constructor before libvcmon's own, or else at load (resolve_libc): no dlsym in a handler.
std::atomic<Sigaction> libc_sigaction_function{nullptr};
std::atomic<Signal> libc_signal_function{nullptr};

template <typename Function> Function libc_function(std::atomic<Function>& slot, const char* name) {
  Function function = slot.load(std::memory_order_acquire);
  if (function == nullptr) {
    function = reinterpret_cast<Function>(::dlsym(RTLD_NEXT, name));
    slot.store(function, std::memory_order_release);
  }
  return function;
}

Sigaction libc_sigaction() {
  return libc_function(libc_sigaction_function, "sigaction");
}

Signal libc_signal() {
  return libc_function(libc_signal_function, "signal");
}

[[gnu::constructor]] void resolve_libc() {
  libc_sigaction();
  libc_signal();
}

bool is_taken(int signal) {
  return signal > 0 && signal < NSIG && taken[signal].load(std::memory_order_acquire);
}

// Installs what the program asks for in place of vcmon's handler.
int give_back(int signal, const struct sigaction& action) {
  const int rc = libc_sigaction()(signal, &action, nullptr);
  if (rc == 0) {
    taken[signal].store(false, std::memory_order_release);
  }
  return rc;
}

} // namespace

bool take_signal(int signal, void (*handler)(int)) {
  struct sigaction current {};
  if (libc_sigaction()(signal, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
      (current.sa_flags & SA_SIGINFO) != 0) {
    return false;
  }
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  // The program's calls go on while the profile is written: unmonitored, this signal would
  // have ended them, not failed them with EINTR.
  action.sa_flags = SA_RESTART;
  taken[signal].store(true, std::memory_order_release);
  if (libc_sigaction()(signal, &action, nullptr) != 0) {
    taken[signal].store(false, std::memory_order_release);
    return false;
  }
  return true;
}

void restore_default_action(int signal) {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  libc_sigaction()(signal, &action, nullptr);
  taken[signal].store(false, std::memory_order_release);
}

} // namespace vcmon::runtime

using vcmon::runtime::give_back;
using vcmon::runtime::is_taken;
using vcmon::runtime::libc_sigaction;
using vcmon::runtime::libc_signal;

// What the program calls instead of libc's (libvcmon.map exports them).
extern "C" int sigaction(int signal, const struct sigaction* action, struct sigaction* old) {
  if (!is_taken(signal)) {
    return libc_sigaction()(signal, action, old);
  }
  if (action != nullptr) {
    if (const int rc = give_back(signal, *action); rc != 0) {
      return rc;
    }
  }
  if (old != nullptr) {
    *old = {};
    old->sa_handler = SIG_DFL; // what it was before vcmon took it
    sigemptyset(&old->sa_mask);
  }
  return 0;
}

extern "C" sighandler_t signal(int signal, sighandler_t handler) {
  if (!is_taken(signal)) {
    return libc_signal()(signal, handler);
  }
  // glibc's signal(): BSD semantics, the signal blocked while its handler runs.
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  return give_back(signal, action) == 0 ? SIG_DFL : SIG_ERR;
}
