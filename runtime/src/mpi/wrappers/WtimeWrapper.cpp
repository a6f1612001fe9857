// MPI_Wtime under VCMON_WTIME=virtual: the rank's virtual time, so the program's own timers
// print what they would print unmonitored (the monitor's intrusion taken out). By default,
// and before the monitor starts, it is MPI's own clock.
#include "core/Monitor.hpp"

#include <mpi.h>

using vcmon::runtime::Monitor;

extern "C" double MPI_Wtime(void) {
  Monitor& monitor = Monitor::instance();
  if (!monitor.enabled() || !monitor.config().wtime_virtual) {
    return PMPI_Wtime();
  }
  // The thread's own reading, as its probes see it: the raw virtual time can step back.
  const std::uint64_t now_ns = monitor.clock().source().now_ns();
  vcmon::runtime::ThreadState& thread = monitor.this_thread();
  ++thread.mpi_events; // a loop bounded by this clock must not have its polls skip ahead
  return static_cast<double>(monitor.probes().thread_virtual_at(thread, now_ns)) * 1e-9;
}
