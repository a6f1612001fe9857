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
  vcmon::vclock::VirtualClock& clock = monitor.clock();
  return static_cast<double>(clock.virtual_at(clock.source().now_ns())) * 1e-9;
}
