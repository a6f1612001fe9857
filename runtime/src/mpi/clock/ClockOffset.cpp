#include "mpi/clock/ClockOffset.hpp"

#include "core/YieldingCompletion.hpp"

#include <limits>
#include <time.h>

namespace vcmon::runtime::mpi {
namespace {

enum Tag { kYourTurn = 1, kPing = 2, kDone = 3, kAllDone = 4 };

void serve(MPI_Comm comm, int size, const vclock::VirtualClock& clock) {
  for (int peer = 1; peer < size; ++peer) {
    PMPI_Send(nullptr, 0, MPI_BYTE, peer, kYourTurn, comm);
    for (;;) {
      MPI_Status status;
      MPI_Request request = MPI_REQUEST_NULL;
      PMPI_Irecv(nullptr, 0, MPI_BYTE, peer, MPI_ANY_TAG, comm, &request);
      complete_yielding(request, &status);
      if (status.MPI_TAG == kDone) {
        break;
      }
      const std::uint64_t reading = clock.real_ns();
      PMPI_Send(&reading, 1, MPI_UINT64_T, peer, kPing, comm);
    }
  }
  for (int peer = 1; peer < size; ++peer) {
    PMPI_Send(nullptr, 0, MPI_BYTE, peer, kAllDone, comm);
  }
}

// Waits for rank 0's message with `tag`, sleeping between polls.
void wait_for(MPI_Comm comm, Tag tag) {
  int arrived = 0;
  for (;;) {
    PMPI_Iprobe(0, tag, comm, &arrived, MPI_STATUS_IGNORE);
    if (arrived) {
      break;
    }
    const timespec pause{0, 200'000};
    nanosleep(&pause, nullptr);
  }
  PMPI_Recv(nullptr, 0, MPI_BYTE, 0, tag, comm, MPI_STATUS_IGNORE);
}

} // namespace

std::int64_t ClockOffset::estimate(MPI_Comm comm, const vclock::VirtualClock& clock) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if (rank == 0) {
    serve(comm, size, clock);
    return 0;
  }
  wait_for(comm, kYourTurn);
  std::uint64_t best_round_trip = std::numeric_limits<std::uint64_t>::max();
  std::int64_t offset = 0;
  for (int round = 0;
       round < kMaxRounds && (round < kMinRounds || best_round_trip > kShortRoundTripNs); ++round) {
    const std::uint64_t before = clock.real_ns();
    PMPI_Send(nullptr, 0, MPI_BYTE, 0, kPing, comm);
    std::uint64_t reading = 0;
    yielding(PMPI_Irecv, &reading, 1, MPI_UINT64_T, 0, kPing, comm);
    const std::uint64_t after = clock.real_ns();
    if (after - before < best_round_trip) {
      best_round_trip = after - before;
      const std::uint64_t midpoint = before + (after - before) / 2;
      offset = static_cast<std::int64_t>(midpoint - reading);
    }
  }
  PMPI_Send(nullptr, 0, MPI_BYTE, 0, kDone, comm);
  wait_for(comm, kAllDone);
  return offset;
}

} // namespace vcmon::runtime::mpi
