// Profiles of random MPI programs run in simulation: nested procedures (a call graph without
// cycles, procedures called from several sites), loops, and blocking, nonblocking and
// collective communication statements, plus an MPI call from uninstrumented code in main.
// Records accumulate as the monitor fills them in a correct run: an activation lasts its own
// work plus everything it calls, and a nonblocking call holds only its own time. So every
// report of these profiles must keep the tree invariants (TreeInvariants.hpp).
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstdint>

namespace vcmon::report::testing {

tables::Profile simulated_program_profile(std::uint64_t seed, std::int32_t ranks);

} // namespace vcmon::report::testing
