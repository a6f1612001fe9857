// Seeded random profiles of a given shape, for round-trip tests, fuzz seeds and the size
// benchmark: a realistic mix of procedures, loops, calls and communication statements, with
// one proc record per resolved call site, one loop record per loop and `partners` com records
// per communication statement on every rank, and a calling-context tree shaped like the site
// tree.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstddef>
#include <cstdint>

namespace vcmon::tables::testing {

struct ProfileShape {
  std::size_t sites = 100;
  std::int32_t ranks = 4;
  std::int32_t partners = 2; // com records per communication statement and rank
  bool contexts = true;      // a calling context per site on every rank (format 6)
};

Profile make_synthetic_profile(const ProfileShape& shape, std::uint64_t seed);

// The same kind of program and records a piece at a time, for profiles too large to hold
// (bench_profile_scale): the graph of `sites` sites, and one rank's records, the same for the
// same arguments.
ProgramGraph make_synthetic_graph(std::size_t sites, std::uint64_t seed);
RankRecords make_synthetic_rank(const ProgramGraph& graph, const ProfileShape& shape,
                                std::int32_t rank, std::uint64_t seed);

} // namespace vcmon::tables::testing
