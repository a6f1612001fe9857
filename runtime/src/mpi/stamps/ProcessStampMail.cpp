#include "mpi/stamps/ProcessStampMail.hpp"

#include "core/Log.hpp"
#include "core/YieldingCompletion.hpp"
#include "mpi/layer/NodeKey.hpp"
#include "mpi/layer/NodeSegment.hpp"
#include "mpi/layer/PrivateWorld.hpp"
#include "mpi/layer/RunningAnswers.hpp"
#include "mpi/layer/UnpolledCall.hpp"

#include <mpi.h>

#include <algorithm>
#include <bit>
#include <new>
#include <optional>
#include <unistd.h>
#include <vector>

namespace vcmon::runtime::mpi {

namespace {

// What each rank tells the others at MPI_Init.
struct Introduction {
  std::uint64_t node = 0;
  std::uint64_t pid = 0;
  std::uint64_t ring_slots = 0;
};
static_assert(sizeof(Introduction) == 3 * sizeof(std::uint64_t));

// The rings between this process and every rank of its node (itself included), in the node's
// segments, which it maps into `node_segments`, and UnpolledCall and RunningAnswers attached to
// the marks and answer lines there (collective over MPI_COMM_WORLD). No rings when they are off
// (the segments then hold the rest) or the memory for them could not be had: every rank then
// sends its stamps as messages (they all agree).
std::vector<StampMail::PeerRings> node_rings(int world_rank, int world_size,
                                             std::uint32_t ring_slots,
                                             std::vector<NodeSegment>& node_segments) {
  const MPI_Comm comm = PrivateWorld::comm();
  // Who shares this node, by which process, and the ring size (every rank lays out the rings
  // alike, with the smallest VCMON_STAMP_RING any was given): one exchange.
  const Introduction mine{node_key(), static_cast<std::uint64_t>(::getpid()), ring_slots};
  std::vector<Introduction> ranks(static_cast<std::size_t>(world_size));
  yielding(PMPI_Iallgather, &mine, 3, MPI_UINT64_T, ranks.data(), 3, MPI_UINT64_T, comm);
  std::uint64_t slots = mine.ring_slots;
  std::vector<int> node; // world ranks on this node, ascending
  for (int r = 0; r < world_size; ++r) {
    const Introduction& rank = ranks[static_cast<std::size_t>(r)];
    slots = std::min(slots, rank.ring_slots);
    if (rank.node == mine.node) {
      node.push_back(r);
    }
  }
  ring_slots = slots != 0 ? std::bit_ceil(static_cast<std::uint32_t>(slots)) : 0;
  const auto local_size = node.size();
  const auto local_rank =
      static_cast<std::size_t>(std::find(node.begin(), node.end(), world_rank) - node.begin());
  // Each rank's segment holds its UnpolledMark line, the rings from every rank of its node to
  // it, then its RunningAnswers region. The rings stay where they were before that region came:
  // with it in front of them, 256 bytes into the segment, an 8-byte ping-pong took 4-6% longer
  // and a 1 KiB one 8% (31 alternating runs, twice each way).
  const std::size_t ring_bytes = ring_slots != 0 ? StampRing::bytes(ring_slots) : 0;
  constexpr std::size_t kMarkBytes = StampRing::kLine;
  static_assert(sizeof(UnpolledMark) <= kMarkBytes);
  const std::size_t answer_bytes = RunningAnswers::region_bytes(local_size);
  const std::size_t rings_at = kMarkBytes;
  const std::size_t answers_at = rings_at + ring_bytes * local_size;
  const std::size_t segment_bytes = answers_at + answer_bytes;
  node_segments.resize(local_size);
  node_segments[local_rank] = NodeSegment::create(segment_bytes);
  int ready = node_segments[local_rank].valid();
  if (ready) { // before anyone maps it
    new (node_segments[local_rank].base()) UnpolledMark;
    RunningAnswers::construct(node_segments[local_rank].base() + answers_at, local_size);
  }
  // Every segment is made (or one could not be) before anyone maps its peers'.
  yielding(PMPI_Iallreduce, MPI_IN_PLACE, &ready, 1, MPI_INT, MPI_MIN, comm);
  for (std::size_t i = 0; ready && i < local_size; ++i) {
    if (i != local_rank) {
      node_segments[i] = NodeSegment::open(
          static_cast<std::int64_t>(ranks[static_cast<std::size_t>(node[i])].pid), segment_bytes);
      ready = node_segments[i].valid();
    }
  }
  // Every peer has mapped this segment (or given up): its name is no longer needed.
  yielding(PMPI_Iallreduce, MPI_IN_PLACE, &ready, 1, MPI_INT, MPI_MIN, comm);
  NodeSegment::unlink_own();
  if (!ready) {
    // No room in /dev/shm, a name taken by another user, or ranks of one host in separate
    // IPC namespaces.
    if (world_rank == 0 && ring_slots != 0) {
      log_line(LogLevel::Warning,
               "no shared memory for stamp rings (%zu bytes a rank); stamps "
               "travel as MPI messages",
               segment_bytes);
    }
    node_segments.clear();
    return {};
  }
  char* const own = node_segments[local_rank].base();
  std::vector<UnpolledMark*> marks(static_cast<std::size_t>(world_size), nullptr);
  std::vector<char*> answer_regions;
  std::vector<StampMail::PeerRings> rings;
  for (std::size_t i = 0; i < local_size; ++i) {
    char* const theirs = node_segments[i].base();
    const auto peer = static_cast<std::size_t>(node[i]);
    marks[peer] = std::launder(reinterpret_cast<UnpolledMark*>(theirs));
    answer_regions.push_back(theirs + answers_at);
    if (ring_slots != 0) {
      rings.push_back({node[i], StampRing(theirs + rings_at + ring_bytes * local_rank, ring_slots),
                       StampRing(own + rings_at + ring_bytes * i, ring_slots)});
    }
  }
  UnpolledCall::attach(std::move(marks), std::launder(reinterpret_cast<UnpolledMark*>(own)));
  RunningAnswers::attach(std::move(node), std::move(answer_regions), local_rank);
  return rings;
}

} // namespace

void ProcessStampMail::PrivateWorldMessages::send(int dest, const StampMessage& message) {
  PMPI_Send(&message, sizeof message, MPI_BYTE, dest, kStampTag, PrivateWorld::comm());
}

bool ProcessStampMail::PrivateWorldMessages::receive(int& source, StampMessage& message) {
  int found = 0;
  MPI_Message handle = MPI_MESSAGE_NULL;
  MPI_Status status;
  PMPI_Improbe(source == kAnySource ? MPI_ANY_SOURCE : source, kStampTag, PrivateWorld::comm(),
               &found, &handle, &status);
  if (!found) {
    return false;
  }
  PMPI_Mrecv(&message, sizeof message, MPI_BYTE, &handle, MPI_STATUS_IGNORE);
  source = status.MPI_SOURCE;
  return true;
}

ProcessStampMail::ProcessStampMail(std::uint32_t ring_slots) {
  int world_size = 1;
  int world_rank = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  const std::vector<StampMail::PeerRings> rings =
      node_rings(world_rank, world_size, ring_slots, segments_);
  mail_.emplace(world_size, rings, messages_);
}

ProcessStampMail::~ProcessStampMail() {
  UnpolledCall::detach();
  RunningAnswers::detach();
  mail_.reset();
  // A peer still mapping a segment keeps it: only this process's view goes.
  segments_.clear();
}

} // namespace vcmon::runtime::mpi
