// Brings every rank's encoded records to one rank for a collective snapshot of the query API,
// with PMPI calls only (the monitor's own traffic must not pass through its wrappers).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <span>

namespace vcmon::runtime {

// The PMPI layer lends its private duplicate of MPI_COMM_WORLD (mpi/layer/PrivateWorld.hpp) for the
// gathers, which otherwise make and free one each (a duplicate costs milliseconds).
void lend_gather_communicator(MPI_Comm comm);

// The communicator the monitor's collectives at MPI_Finalize and snapshots run on: the lent one,
// or a duplicate of MPI_COMM_WORLD made once where none was lent.
MPI_Comm monitor_communicator();

// Called on the root with one rank's whole bytes, once per rank, in no particular order.
using RankBytesSink = std::function<void(int rank, std::span<const std::byte> bytes)>;

// Collective over MPI_COMM_WORLD (on monitor_communicator()): `root` is given every rank's
// `mine`, its own first; the other ranks are given nothing. The ranks send in turn
// (RecordsInTurn.hpp), so the root holds at most a few ranks' bytes besides what `sink` keeps,
// and no size is an int. For the query API's collective snapshot; profiles are written by the
// ranks together (CollectiveProfileWriter.hpp). `sink` must not throw.
void gather_each_to(int root, std::span<const std::byte> mine, const RankBytesSink& sink);

} // namespace vcmon::runtime
