// MPI_Pcontrol as mpiP users know it: 0 stops recording, 1 resumes, 2 resets the records,
// 3 and 4 write a profile now (collective: every rank calls it). Other levels do nothing.
#include "core/Monitor.hpp"
#include "query/RecordsExclusion.hpp"

#include <mpi.h>

using vcmon::runtime::Monitor;
using vcmon::runtime::query::RecordsExclusion;

extern "C" int MPI_Pcontrol(const int level, ...) {
  Monitor& monitor = Monitor::instance();
  if (!monitor.enabled()) {
    return MPI_SUCCESS;
  }
  if (level == 3 || level == 4) {
    monitor.write_profile_now();
    return MPI_SUCCESS;
  }
  if (level < 0 || level > 2) {
    return MPI_SUCCESS;
  }
  const vcmon::vclock::IntrusionScope work(monitor.clock(), monitor.action_cost_ns());
  RecordsExclusion& exclusion = RecordsExclusion::instance();
  const vcmon::tables::RankRecords raw = monitor.local_rank_records(true);
  if (level == 0) {
    exclusion.pause(raw);
  } else if (level == 1) {
    exclusion.resume(raw);
  } else {
    exclusion.reset(raw);
  }
  return MPI_SUCCESS;
}
