// Sums every thread's record set and the overflow table into one rank's records
// (tables::RankRecords), sorted by site and key.
#pragma once

#include "core/OverflowRecords.hpp"
#include "core/SiteRegistry.hpp"
#include "core/ThreadRecords.hpp"
#include "vcmon/tables/Records.hpp"

#include <cstdint>

namespace vcmon::runtime {

// Synthetic comm site ids while running: kSyntheticCommBase + MPI function index. In the
// profile they follow the registered sites (site_count() + index).
inline constexpr std::uint32_t kSyntheticCommBase = 0x8000'0000u;

struct CollectedRecords {
  tables::RankRecords records; // procs, loops, coms, contexts filled; the rest is the caller's
  std::uint64_t probe_events = 0;
  std::uint64_t folded_activations = 0;
  std::uint64_t folded_contexts = 0; // folded_activations among them
  std::uint64_t unmatched_exits = 0;
  std::uint64_t dropped_records = 0;
};

CollectedRecords collect_records(const SiteRegistry& registry, const ThreadRecordsList& threads,
                                 const OverflowRecords& overflow, std::uint32_t synthetic_count);

} // namespace vcmon::runtime
