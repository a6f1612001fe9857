// A synthetic profile shaped like a real program for the report benchmark: every procedure is
// reachable from main through a call tree, so the report's tree holds every site (the tables
// module's random profiles mostly are not reachable from main).
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstddef>
#include <cstdint>

namespace vcmon::report::bench {

// `sites` sites in procedures of ten sites each: three calls (a ternary call tree), an outer
// and an inner loop, and MPI_Send, MPI_Recv, MPI_Allreduce and MPI_Isend (to four partners).
// Times are inclusive and consistent, with rank-dependent imbalance.
tables::Profile make_call_tree_profile(std::int32_t ranks, std::size_t sites, std::uint64_t seed);

} // namespace vcmon::report::bench
