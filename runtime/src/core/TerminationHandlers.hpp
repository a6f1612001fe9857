// A partial profile when the program ends without MPI_Finalize: at exit, and on SIGTERM or
// SIGINT. The signal handler only wakes a helper thread (writing a file is not
// async-signal-safe); the helper writes this rank's records and re-raises the signal with
// its default action, so the process still ends as the signal demands.
#pragma once

namespace vcmon::runtime {

class Monitor;

// Installs the exit handler, and the signal handlers where the program has none.
void install_termination_handlers(Monitor& monitor);

} // namespace vcmon::runtime
