#include "core/RecordsInTurn.hpp"

#include "core/ProfileTags.hpp"
#include "core/YieldingCompletion.hpp"

#include <algorithm>
#include <sched.h>
#include <vector>

namespace vcmon::runtime {
namespace {

int chunk_size(std::uint64_t total, std::uint64_t offset, const InTurnLimits& limits) {
  return static_cast<int>(std::min<std::uint64_t>(limits.chunk_bytes, total - offset));
}

void send_when_asked(MPI_Comm comm, int root, std::span<const std::byte> mine,
                     const InTurnLimits& limits) {
  char turn = 0;
  yielding(PMPI_Irecv, &turn, 0, MPI_CHAR, root, kRecordsTurnTag, comm);
  for (std::uint64_t offset = 0; offset < mine.size(); offset += limits.chunk_bytes) {
    yielding(PMPI_Isend, mine.data() + offset, chunk_size(mine.size(), offset, limits), MPI_BYTE,
             root, kRecordsChunkTag, comm);
  }
}

// One rank being received: its next chunk's receive and where that chunk lies in its bytes.
struct Slot {
  int rank = -1;
  std::uint64_t offset = 0;
  std::vector<std::byte> buffer;
};

} // namespace

void collect_in_turn(MPI_Comm comm, int root, std::span<const std::byte> mine,
                     std::span<const std::uint64_t> sizes, const ChunkSink& sink,
                     const InTurnLimits& limits) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (rank != root) {
    send_when_asked(comm, root, mine, limits);
    return;
  }
  std::vector<Slot> slots(static_cast<std::size_t>(limits.ranks_in_flight));
  std::vector<MPI_Request> requests(slots.size(), MPI_REQUEST_NULL);
  int next_rank = 0;
  const int ranks = static_cast<int>(sizes.size());
  const auto post = [&](std::size_t s) {
    Slot& slot = slots[s];
    const int count = chunk_size(sizes[slot.rank], slot.offset, limits);
    slot.buffer.resize(static_cast<std::size_t>(count));
    PMPI_Irecv(slot.buffer.data(), count, MPI_BYTE, slot.rank, kRecordsChunkTag, comm,
               &requests[s]);
  };
  // Gives the slot the next rank with bytes to send, and asks that rank for them.
  const auto start_next_rank = [&](std::size_t s) {
    // The root's own bytes are not collected; a rank with none waits for its turn all the same.
    while (next_rank < ranks && (next_rank == root || sizes[next_rank] == 0)) {
      if (next_rank != root) {
        yielding(PMPI_Isend, nullptr, 0, MPI_CHAR, next_rank, kRecordsTurnTag, comm);
      }
      ++next_rank;
    }
    if (next_rank == ranks) {
      slots[s].rank = -1;
      return;
    }
    slots[s].rank = next_rank++;
    slots[s].offset = 0;
    yielding(PMPI_Isend, nullptr, 0, MPI_CHAR, slots[s].rank, kRecordsTurnTag, comm);
    post(s);
  };
  for (std::size_t s = 0; s < slots.size(); ++s) {
    start_next_rank(s);
  }
  for (;;) {
    int index = MPI_UNDEFINED;
    int done = 0;
    PMPI_Testany(limits.ranks_in_flight, requests.data(), &index, &done, MPI_STATUS_IGNORE);
    if (done && index == MPI_UNDEFINED) {
      return; // no request left: every rank's bytes arrived
    }
    if (!done) {
      sched_yield(); // as complete_yielding: ranks may outnumber cores
      continue;
    }
    const auto s = static_cast<std::size_t>(index);
    Slot& slot = slots[s];
    sink(slot.rank, slot.offset, slot.buffer);
    slot.offset += slot.buffer.size();
    if (slot.offset < sizes[slot.rank]) {
      post(s);
    } else {
      start_next_rank(s);
    }
  }
}

} // namespace vcmon::runtime
