#include "mpi/clock/ClockOffset.hpp"

#include "core/YieldingCompletion.hpp"
#include "mpi/layer/NodeKey.hpp"

#include <algorithm>
#include <limits>
#include <time.h>
#include <unordered_map>
#include <vector>

namespace vcmon::runtime::mpi {
namespace {

enum Tag { kYourTurn = 1, kPing = 2, kDone = 3, kAllDone = 4 };

// What each rank tells the others first: its domain and its clock's rate (0: not a cycle
// counter).
struct DomainIntroduction {
  std::uint64_t key = 0;
  std::uint64_t ns_per_tick_q32 = 0;
};
static_assert(sizeof(DomainIntroduction) == 2 * sizeof(std::uint64_t));

// `clock`'s real time minus CLOCK_MONOTONIC at the same instant.
std::int64_t clock_minus_monotonic(const vclock::ClockSource& source,
                                   const vclock::VirtualClock& clock) {
  const std::uint64_t now = source.now_ns();
  // The clock's origin (with any shift of its time base) relative to the source's.
  const auto from_source = static_cast<std::int64_t>(clock.real_at(now) - now);
  return source.minus_monotonic_ns() + from_source;
}

void serve(MPI_Comm comm, int size, const std::vector<int>& leaders,
           const vclock::VirtualClock& clock) {
  for (const int peer : leaders) {
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

// A leader's estimate of its offset to rank 0, once rank 0 serves it.
std::int64_t estimate(MPI_Comm comm, const vclock::VirtualClock& clock) {
  wait_for(comm, kYourTurn);
  std::uint64_t best_round_trip = std::numeric_limits<std::uint64_t>::max();
  std::int64_t offset = 0;
  for (int round = 0;
       round < ClockOffset::kMaxRounds &&
       (round < ClockOffset::kMinRounds || best_round_trip > ClockOffset::kShortRoundTripNs);
       ++round) {
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
  return offset;
}

} // namespace

std::int64_t ClockOffset::measure(MPI_Comm comm, vclock::ClockSource& source,
                                  const vclock::VirtualClock& clock, bool estimate_all) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const auto count = static_cast<std::size_t>(size);
  std::uint64_t key = clock_domain_key();
  if (estimate_all) {
    key ^= 0x9e3779b97f4a7c15u * static_cast<std::uint64_t>(rank + 1);
  }
  const DomainIntroduction mine{key, source.ns_per_tick_q32()};
  std::vector<DomainIntroduction> domains(count);
  yielding(PMPI_Iallgather, &mine, 2, MPI_UINT64_T, domains.data(), 2, MPI_UINT64_T, comm);
  // Each rank's leader: the lowest rank of its domain.
  std::vector<int> leader_of(count);
  std::vector<int> remote_leaders; // of the domains rank 0 is not in
  std::unordered_map<std::uint64_t, int> leader_of_domain;
  for (std::size_t r = 0; r < count; ++r) {
    const auto [entry, first] = leader_of_domain.try_emplace(domains[r].key, static_cast<int>(r));
    leader_of[r] = entry->second;
    if (first && domains[r].key != domains[0].key) {
      remote_leaders.push_back(static_cast<int>(r));
    }
  }
  const int leader = leader_of[static_cast<std::size_t>(rank)];
  if (leader != rank) {
    source.adopt_rate(domains[static_cast<std::size_t>(leader)].ns_per_tick_q32);
  }
  const std::int64_t minus_monotonic = clock_minus_monotonic(source, clock);
  std::vector<std::int64_t> minus_monotonics(count);
  yielding(PMPI_Iallgather, &minus_monotonic, 1, MPI_INT64_T, minus_monotonics.data(), 1,
           MPI_INT64_T, comm);
  const std::int64_t to_leader =
      minus_monotonic - minus_monotonics[static_cast<std::size_t>(leader)];
  if (remote_leaders.empty()) {
    return to_leader; // one domain: rank 0 leads it
  }
  std::int64_t leader_offset = 0;
  if (rank == 0) {
    serve(comm, size, remote_leaders, clock);
  } else {
    if (std::find(remote_leaders.begin(), remote_leaders.end(), rank) != remote_leaders.end()) {
      leader_offset = estimate(comm, clock);
    }
    wait_for(comm, kAllDone);
  }
  std::vector<std::int64_t> leader_offsets(count);
  yielding(PMPI_Iallgather, &leader_offset, 1, MPI_INT64_T, leader_offsets.data(), 1, MPI_INT64_T,
           comm);
  return to_leader + leader_offsets[static_cast<std::size_t>(leader)];
}

} // namespace vcmon::runtime::mpi
