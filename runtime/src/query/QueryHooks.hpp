// Where the core calls the query interface: the start and end of the MPI part of the run
// (live publication) and every collection of records for a profile (MPI_Pcontrol).
#pragma once

#include "vcmon/tables/Records.hpp"

namespace vcmon::runtime {
class Monitor;
}

namespace vcmon::runtime::query {

// After PMPI_Init, on every rank (collective): learns the job id, removes stale segments of
// this user and starts live publication (VCMON_PUBLISH_MS).
void on_mpi_started(Monitor& monitor);
// Before MPI_Finalize's gather, at MPI_Abort and at exit: stops publication and removes this
// rank's segment. Idempotent.
void on_mpi_ending();
// From the PMPI layer's work on a thread: once after each publication, counts the thread's
// open procedures and loops up to now (only the owning thread may), so that the next
// publication shows them growing while they run. Otherwise one relaxed load.
void settle_if_published(Monitor& monitor);
// Takes out what MPI_Pcontrol excluded (levels 0 and 2) from records collected for a profile.
void apply_pcontrol(tables::RankRecords& records);

} // namespace vcmon::runtime::query
