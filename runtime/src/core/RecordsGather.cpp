#include "core/RecordsGather.hpp"
#include "core/YieldingCompletion.hpp"

#include <mpi.h>

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

std::vector<std::vector<std::byte>> gather_to(int root, std::span<const std::byte> mine) {
  MPI_Comm comm = monitor_communicator();
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);

  int my_size = static_cast<int>(mine.size());
  std::vector<int> sizes(rank == root ? size : 0);
  yielding(PMPI_Igather, &my_size, 1, MPI_INT, sizes.data(), 1, MPI_INT, root, comm);
  std::vector<int> displacements(sizes.size());
  int total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    displacements[r] = total;
    total += sizes[r];
  }
  std::vector<std::byte> all(static_cast<std::size_t>(total));
  yielding(PMPI_Igatherv, mine.data(), my_size, MPI_BYTE, all.data(), sizes.data(),
           displacements.data(), MPI_BYTE, root, comm);

  std::vector<std::vector<std::byte>> per_rank;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    const auto begin = all.begin() + displacements[r];
    per_rank.emplace_back(begin, begin + sizes[r]);
  }
  return per_rank;
}

} // namespace vcmon::runtime
