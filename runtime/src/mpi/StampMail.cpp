#include "mpi/StampMail.hpp"

#include "mpi/UnpolledCall.hpp"
#include "mpi/WorldRanks.hpp"

#include <bit>
#include <cstdio>
#include <cstring>
#include <new>

namespace vcmon::runtime::mpi {

void StampMail::open(std::uint32_t ring_slots) {
  int world_size = 1;
  PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
  inbound_.assign(static_cast<std::size_t>(world_size), Inbound{});
  outbound_.assign(static_cast<std::size_t>(world_size), Outbound{});
  ring_sources_.clear();
  PMPI_Comm_dup(MPI_COMM_WORLD, &messages_);
  PMPI_Comm_set_errhandler(messages_, MPI_ERRORS_RETURN);
  // Every rank lays out the rings alike, even if VCMON_STAMP_RING differs between them.
  PMPI_Allreduce(MPI_IN_PLACE, &ring_slots, 1, MPI_UINT32_T, MPI_MIN, messages_);
  if (ring_slots == 0) {
    return;
  }
  ring_slots = std::bit_ceil(ring_slots);
  // Each rank's segment holds its UnpolledMark line, then the rings from every rank of its node
  // to it.
  MPI_Comm node = MPI_COMM_NULL;
  PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  PMPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
  int local_size = 1;
  int local_rank = 0;
  PMPI_Comm_size(node, &local_size);
  PMPI_Comm_rank(node, &local_rank);
  const std::size_t ring_bytes = StampRing::bytes(ring_slots);
  constexpr std::size_t kMarkBytes = StampRing::kLine;
  static_assert(sizeof(UnpolledMark) <= kMarkBytes);
  const std::size_t segment_bytes = kMarkBytes + ring_bytes * static_cast<std::size_t>(local_size);
  char* mine = nullptr;
  // Without the shared segment (no room in /dev/shm, say) every rank of the node sends its
  // stamps as messages: they agree, since a rank's rings exist only if all of them do.
  int allocated = PMPI_Win_allocate_shared(static_cast<MPI_Aint>(segment_bytes), 1, MPI_INFO_NULL,
                                           node, &mine, &window_) == MPI_SUCCESS;
  PMPI_Allreduce(MPI_IN_PLACE, &allocated, 1, MPI_INT, MPI_MIN, node);
  if (!allocated) {
    if (local_rank == 0) {
      std::fprintf(stderr,
                   "vcmon: no shared memory for stamp rings (%zu bytes a rank); stamps "
                   "travel as MPI messages\n",
                   segment_bytes);
    }
    if (window_ != MPI_WIN_NULL) {
      PMPI_Win_free(&window_);
    }
    PMPI_Comm_free(&node);
    return;
  }
  std::memset(mine, 0, segment_bytes);
  new (mine) UnpolledMark;
  const std::vector<std::int32_t> world = world_ranks_of(node, local_size, false);
  std::vector<UnpolledMark*> marks(static_cast<std::size_t>(world_size), nullptr);
  for (int i = 0; i < local_size; ++i) {
    MPI_Aint size = 0;
    int unit = 1;
    char* theirs = nullptr;
    PMPI_Win_shared_query(window_, i, &size, &unit, &theirs);
    const auto peer = static_cast<std::size_t>(world[static_cast<std::size_t>(i)]);
    // Each owner made its line below, before the barrier that ends this function.
    marks[peer] = std::launder(reinterpret_cast<UnpolledMark*>(theirs));
    char* const rings = theirs + kMarkBytes;
    outbound_[peer].ring =
        StampRing(rings + ring_bytes * static_cast<std::size_t>(local_rank), ring_slots);
    inbound_[peer].ring =
        StampRing(mine + kMarkBytes + ring_bytes * static_cast<std::size_t>(i), ring_slots);
    ring_sources_.push_back(static_cast<int>(peer));
  }
  UnpolledCall::attach(std::move(marks), std::launder(reinterpret_cast<UnpolledMark*>(mine)));
  // Nobody writes into a segment before its owner zeroed it.
  PMPI_Barrier(node);
  PMPI_Comm_free(&node);
}

void StampMail::close() {
  UnpolledCall::detach();
  if (window_ != MPI_WIN_NULL) {
    PMPI_Win_free(&window_);
  }
  inbound_.clear();
  outbound_.clear();
  ring_sources_.clear();
}

void StampMail::post(int dest, StampMessage message) {
  Outbound& to = outbound_[static_cast<std::size_t>(dest)];
  message.sequence = ++to.sequence;
  if (to.ring.valid()) {
    if (to.ring.push(message)) {
      return;
    }
    to.ring.note_diverted();
  }
  PMPI_Send(&message, sizeof message, MPI_BYTE, dest, 0, messages_);
}

bool StampMail::receive(int& source, StampMessage& message) {
  int found = 0;
  MPI_Message handle = MPI_MESSAGE_NULL;
  MPI_Status status;
  PMPI_Improbe(source, 0, messages_, &found, &handle, &status);
  if (!found) {
    return false;
  }
  PMPI_Mrecv(&message, sizeof message, MPI_BYTE, &handle, MPI_STATUS_IGNORE);
  source = status.MPI_SOURCE;
  return true;
}

} // namespace vcmon::runtime::mpi
