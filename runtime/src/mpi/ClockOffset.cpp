#include "mpi/ClockOffset.hpp"

#include <limits>

namespace vcmon::runtime::mpi {

std::int64_t ClockOffset::estimate(MPI_Comm comm, const vclock::VirtualClock& clock) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  constexpr int kTag = 0;
  if (rank == 0) {
    for (int peer = 1; peer < size; ++peer) {
      for (int round = 0; round < kRounds; ++round) {
        PMPI_Recv(nullptr, 0, MPI_BYTE, peer, kTag, comm, MPI_STATUS_IGNORE);
        const std::uint64_t reading = clock.real_ns();
        PMPI_Send(&reading, 1, MPI_UINT64_T, peer, kTag, comm);
      }
    }
    return 0;
  }
  std::uint64_t best_round_trip = std::numeric_limits<std::uint64_t>::max();
  std::int64_t offset = 0;
  for (int round = 0; round < kRounds; ++round) {
    const std::uint64_t before = clock.real_ns();
    PMPI_Send(nullptr, 0, MPI_BYTE, 0, kTag, comm);
    std::uint64_t reading = 0;
    PMPI_Recv(&reading, 1, MPI_UINT64_T, 0, kTag, comm, MPI_STATUS_IGNORE);
    const std::uint64_t after = clock.real_ns();
    if (after - before < best_round_trip) {
      best_round_trip = after - before;
      const std::uint64_t midpoint = before + (after - before) / 2;
      offset = static_cast<std::int64_t>(midpoint - reading);
    }
  }
  return offset;
}

} // namespace vcmon::runtime::mpi
