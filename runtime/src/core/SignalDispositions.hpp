// The signals vcmon handles for its partial profile (SIGTERM, SIGINT), as the program sees
// them. vcmon takes a signal only where the program has no handler, and the program still sees
// none there: libvcmon's sigaction() and signal() report the default disposition, and once the
// program installs its own, vcmon's is gone. A program that saw vcmon's handler chained to it
// from its own, as libraries chain to the handler they replace, and vcmon's ended the process
// (exit 15) where the plain program carried on.
#pragma once

namespace vcmon::runtime {

// Installs `handler` for `signal` if its disposition is the default; true if it did.
bool take_signal(int signal, void (*handler)(int));

// Restores the default disposition of `signal`. Async-signal-safe.
void restore_default_action(int signal);

// Gives back `signal` if vcmon's handler is still installed for it (the default disposition):
// libvcmon is being unloaded, and the handler with it.
void release_signal(int signal);

} // namespace vcmon::runtime
