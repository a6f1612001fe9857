// Brings every rank's encoded records to one rank for a collective snapshot of the query API,
// with PMPI calls only (the monitor's own traffic must not pass through its wrappers).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

namespace vcmon::runtime {

// The PMPI layer lends its private duplicate of MPI_COMM_WORLD (mpi/layer/PrivateWorld.hpp) for the
// gathers, which otherwise make and free one each (a duplicate costs milliseconds).
void lend_gather_communicator(MPI_Comm comm);

// The communicator the monitor's collectives at MPI_Finalize and snapshots run on: the lent one,
// or a duplicate of MPI_COMM_WORLD made once where none was lent.
MPI_Comm monitor_communicator();

// Collective over MPI_COMM_WORLD (on monitor_communicator()). `root` receives one buffer per
// rank, in rank order; the other ranks receive nothing. For the query API's collective snapshot;
// profiles are written by the ranks together (CollectiveProfileWriter.hpp).
std::vector<std::vector<std::byte>> gather_to(int root, std::span<const std::byte> mine);

} // namespace vcmon::runtime
