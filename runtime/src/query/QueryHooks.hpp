// The query interface's part in the run: it subscribes to the core's events (MonitorEvents:
// the start and end of the MPI part of the run for live publication, every collection of
// records for a profile for MPI_Pcontrol), and the PMPI layer calls it on each thread.
#pragma once

namespace vcmon::runtime {
class Monitor;
}

namespace vcmon::runtime::query {

// From the PMPI layer's work on a thread: once after each publication, counts the thread's
// open procedures and loops up to now (only the owning thread may), so that the next
// publication shows them growing while they run. Otherwise one relaxed load.
void settle_if_published(Monitor& monitor);

} // namespace vcmon::runtime::query
