// Ranks in MPI_COMM_WORLD of the members of a communicator: records and stamps name processes
// by world rank.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace vcmon::runtime::mpi {

// World rank of each of the `size` ranks of `comm`'s group (its remote group if `remote`);
// -1 for a process outside MPI_COMM_WORLD.
std::vector<std::int32_t> world_ranks_of(MPI_Comm comm, int size, bool remote);

} // namespace vcmon::runtime::mpi
