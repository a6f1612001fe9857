#include "core/RecordsGather.hpp"
#include "core/RecordsInTurn.hpp"
#include "core/YieldingCompletion.hpp"

#include <mpi.h>

#include <cstdint>
#include <map>
#include <vector>

namespace vcmon::runtime {

namespace {
MPI_Comm lent = MPI_COMM_NULL;
} // namespace

void lend_gather_communicator(MPI_Comm comm) {
  lent = comm;
}

MPI_Comm monitor_communicator() {
  if (lent == MPI_COMM_NULL) {
    yielding(PMPI_Comm_idup, MPI_COMM_WORLD, &lent);
  }
  return lent;
}

void gather_each_to(int root, std::span<const std::byte> mine, const RankBytesSink& sink) {
  MPI_Comm comm = monitor_communicator();
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);

  const std::uint64_t my_size = mine.size();
  std::vector<std::uint64_t> sizes(rank == root ? size : 0);
  yielding(PMPI_Igather, &my_size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, root, comm);
  if (rank == root) {
    sink(rank, mine);
  }
  // A rank's chunks are joined until it is whole, then handed on and let go.
  std::map<int, std::vector<std::byte>> partial;
  collect_in_turn(comm, root, mine, sizes,
                  [&](int from, std::uint64_t, std::span<const std::byte> chunk) {
                    std::vector<std::byte>& bytes = partial[from];
                    bytes.insert(bytes.end(), chunk.begin(), chunk.end());
                    if (bytes.size() == sizes[static_cast<std::size_t>(from)]) {
                      sink(from, bytes);
                      partial.erase(from);
                    }
                  });
  // Ranks with no bytes send no chunk.
  for (int r = 0; r < static_cast<int>(sizes.size()); ++r) {
    if (r != root && sizes[static_cast<std::size_t>(r)] == 0) {
      sink(r, {});
    }
  }
}

} // namespace vcmon::runtime
