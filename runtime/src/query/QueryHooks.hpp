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
// Takes out what MPI_Pcontrol excluded (levels 0 and 2) from records collected for a profile.
void apply_pcontrol(tables::RankRecords& records);

} // namespace vcmon::runtime::query
