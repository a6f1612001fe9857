// What the profile's head, its summary section and the run's summary line need from every
// rank, reduced in the job in O(log P) steps instead of collected at rank 0: the distinct host
// names, the job's summary (tables::JobSummary), and the times of the rank that ran longest in
// virtual time. Collective over `comm`, with PMPI calls only.
#pragma once

#include "vcmon/tables/JobSummary.hpp"
#include "vcmon/tables/Profile.hpp"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vcmon::runtime {

// Rank 0 receives the distinct names among every rank's `host`, sorted; the others nothing.
std::vector<std::string> distinct_hosts_at_rank0(MPI_Comm comm, const std::string& host);

// Rank 0 receives the job's summary of every rank's `mine`; the others nothing, nor rank 0 when
// a rank's records contradict its `graph` (the program graph, which every rank builds alike:
// logged).
std::optional<tables::JobSummary> job_summary_at_rank0(MPI_Comm comm,
                                                       const tables::RankRecords& mine,
                                                       const tables::ProgramGraph& graph);

struct RankTimes {
  std::uint64_t virtual_ns = 0;
  std::uint64_t real_ns = 0;
  std::uint64_t intrusion_ns = 0;
};

// Rank 0 receives the times of the rank with the longest virtual time.
RankTimes longest_rank_at_rank0(MPI_Comm comm, const RankTimes& mine);

} // namespace vcmon::runtime
