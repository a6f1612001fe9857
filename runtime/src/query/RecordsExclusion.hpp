// What MPI_Pcontrol keeps out of the records (mpiP's levels): 0 pauses recording, 1 resumes,
// 2 resets. Probes keep running (their cost stays intrusion and time stays virtual); what
// happened while paused, and everything before a reset, is subtracted whenever records are
// read, so the probe and PMPI hot paths pay nothing for it.
#pragma once

#include "vcmon/tables/Records.hpp"

#include <mutex>
#include <optional>

namespace vcmon::runtime::query {

class __attribute__((visibility("hidden"))) RecordsExclusion {
public:
  // The process's one instance.
  static RecordsExclusion& instance();

  // `raw`: this rank's records now, before any exclusion.
  void pause(const tables::RankRecords& raw);
  void resume(const tables::RankRecords& raw);
  void reset(const tables::RankRecords& raw);
  bool paused() const;

  // Turns raw records into what the profile shows: totals unchanged, proc, loop and com
  // records and calling contexts without what was excluded.
  void apply(tables::RankRecords& records) const;

private:
  mutable std::mutex mutex_; // MPI_Pcontrol and readers only, never probes
  tables::RankRecords excluded_;
  std::optional<tables::RankRecords> paused_at_;
};

} // namespace vcmon::runtime::query
