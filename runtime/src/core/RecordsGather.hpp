// Brings every rank's encoded records to rank 0 at MPI_Finalize, with PMPI calls only (the
// monitor's own traffic must not pass through its wrappers).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

namespace vcmon::runtime {

// The PMPI layer lends its private duplicate of MPI_COMM_WORLD (mpi/layer/PrivateWorld.hpp) for the
// gathers, which otherwise make and free one each (a duplicate costs milliseconds).
void lend_gather_communicator(MPI_Comm comm);

// Collective over MPI_COMM_WORLD (on a private duplicate). Rank 0 receives one buffer per
// rank, in rank order; the other ranks receive nothing.
std::vector<std::vector<std::byte>> gather_to_rank0(std::span<const std::byte> mine);
// The same to any root (the query API's collective snapshot).
std::vector<std::vector<std::byte>> gather_to(int root, std::span<const std::byte> mine);

} // namespace vcmon::runtime
