#include "MpiClassifier.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace vcmon::preprocessor {
namespace {

using Entry = std::pair<std::string_view, MpiCategory>;
constexpr auto P2P = MpiCategory::PointToPoint;
constexpr auto Coll = MpiCategory::Collective;
constexpr auto Probe = MpiCategory::Probe;
constexpr auto Done = MpiCategory::Completion;

// Sorted by name, so lookup is a binary search (checked below at compile time).
constexpr std::array kCommunicationFunctions{
    Entry{"MPI_Allgather", Coll},
    Entry{"MPI_Allgatherv", Coll},
    Entry{"MPI_Allreduce", Coll},
    Entry{"MPI_Alltoall", Coll},
    Entry{"MPI_Alltoallv", Coll},
    Entry{"MPI_Alltoallw", Coll},
    Entry{"MPI_Barrier", Coll},
    Entry{"MPI_Bcast", Coll},
    Entry{"MPI_Bsend", P2P},
    Entry{"MPI_Exscan", Coll},
    Entry{"MPI_Gather", Coll},
    Entry{"MPI_Gatherv", Coll},
    Entry{"MPI_Iallgather", Coll},
    Entry{"MPI_Iallgatherv", Coll},
    Entry{"MPI_Iallreduce", Coll},
    Entry{"MPI_Ialltoall", Coll},
    Entry{"MPI_Ialltoallv", Coll},
    Entry{"MPI_Ialltoallw", Coll},
    Entry{"MPI_Ibarrier", Coll},
    Entry{"MPI_Ibcast", Coll},
    Entry{"MPI_Ibsend", P2P},
    Entry{"MPI_Iexscan", Coll},
    Entry{"MPI_Igather", Coll},
    Entry{"MPI_Igatherv", Coll},
    Entry{"MPI_Improbe", Probe},
    Entry{"MPI_Imrecv", P2P},
    Entry{"MPI_Ineighbor_allgather", Coll},
    Entry{"MPI_Ineighbor_allgatherv", Coll},
    Entry{"MPI_Ineighbor_alltoall", Coll},
    Entry{"MPI_Ineighbor_alltoallv", Coll},
    Entry{"MPI_Ineighbor_alltoallw", Coll},
    Entry{"MPI_Iprobe", Probe},
    Entry{"MPI_Irecv", P2P},
    Entry{"MPI_Ireduce", Coll},
    Entry{"MPI_Ireduce_scatter", Coll},
    Entry{"MPI_Ireduce_scatter_block", Coll},
    Entry{"MPI_Irsend", P2P},
    Entry{"MPI_Iscan", Coll},
    Entry{"MPI_Iscatter", Coll},
    Entry{"MPI_Iscatterv", Coll},
    Entry{"MPI_Isend", P2P},
    Entry{"MPI_Issend", P2P},
    Entry{"MPI_Mprobe", Probe},
    Entry{"MPI_Mrecv", P2P},
    Entry{"MPI_Neighbor_allgather", Coll},
    Entry{"MPI_Neighbor_allgatherv", Coll},
    Entry{"MPI_Neighbor_alltoall", Coll},
    Entry{"MPI_Neighbor_alltoallv", Coll},
    Entry{"MPI_Neighbor_alltoallw", Coll},
    Entry{"MPI_Probe", Probe},
    Entry{"MPI_Recv", P2P},
    Entry{"MPI_Reduce", Coll},
    Entry{"MPI_Reduce_scatter", Coll},
    Entry{"MPI_Reduce_scatter_block", Coll},
    Entry{"MPI_Rsend", P2P},
    Entry{"MPI_Scan", Coll},
    Entry{"MPI_Scatter", Coll},
    Entry{"MPI_Scatterv", Coll},
    Entry{"MPI_Send", P2P},
    Entry{"MPI_Sendrecv", P2P},
    Entry{"MPI_Sendrecv_replace", P2P},
    Entry{"MPI_Ssend", P2P},
    Entry{"MPI_Start", P2P},
    Entry{"MPI_Startall", P2P},
    Entry{"MPI_Test", Done},
    Entry{"MPI_Testall", Done},
    Entry{"MPI_Testany", Done},
    Entry{"MPI_Testsome", Done},
    Entry{"MPI_Wait", Done},
    Entry{"MPI_Waitall", Done},
    Entry{"MPI_Waitany", Done},
    Entry{"MPI_Waitsome", Done},
};

static_assert(std::ranges::is_sorted(kCommunicationFunctions, {}, &Entry::first),
              "kCommunicationFunctions must stay sorted by name");

} // namespace

std::optional<MpiCategory> classify_mpi_function(std::string_view name) {
  const auto* it = std::ranges::lower_bound(kCommunicationFunctions, name, {}, &Entry::first);
  if (it == kCommunicationFunctions.end() || it->first != name) {
    return std::nullopt;
  }
  return it->second;
}

bool is_mpi_name(std::string_view name) {
  return name.starts_with("MPI_") || name.starts_with("PMPI_") || name.starts_with("MPIX_");
}

} // namespace vcmon::preprocessor
