#include "mpi/layer/WorldRanks.hpp"

namespace vcmon::runtime::mpi {

std::vector<std::int32_t> world_ranks_of(MPI_Comm comm, int size, bool remote) {
  MPI_Group group = MPI_GROUP_NULL;
  MPI_Group world = MPI_GROUP_NULL;
  if (remote) {
    PMPI_Comm_remote_group(comm, &group);
  } else {
    PMPI_Comm_group(comm, &group);
  }
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<std::int32_t> ranks(static_cast<std::size_t>(size));
  std::vector<std::int32_t> world_ranks(ranks.size(), -1);
  for (int i = 0; i < size; ++i) {
    ranks[static_cast<std::size_t>(i)] = i;
  }
  PMPI_Group_translate_ranks(group, size, ranks.data(), world, world_ranks.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return world_ranks;
}

} // namespace vcmon::runtime::mpi
