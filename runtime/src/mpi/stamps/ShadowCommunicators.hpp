// Every user communicator gets a private duplicate, invisible to the program: it carries the
// virtual-time reductions of collectives and the answers to synchronous sends (one duplicate:
// each takes one of MPICH's few thousand context ids).
// Its message stamps travel by StampMail, filed under the communicator's agreed `id`, into its
// inbox or to the receives that claimed them. Lookup by handle is O(1) and touches no MPI
// state, so an invalid handle from the user falls through to PMPI unchanged.
#pragma once

#include "mpi/stamps/PostedStamp.hpp"
#include "mpi/stamps/StampInbox.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace vcmon::runtime::mpi {

struct Shadow {
  MPI_Comm duplicate = MPI_COMM_NULL;
  // Valid destination ranks are [0, peers); for an intercommunicator, the remote group.
  int peers = 0;
  // Rank in MPI_COMM_WORLD of each peer (records name partners by world rank).
  std::vector<std::int32_t> world_rank;
  // This process's rank among the peers; -1 for an intercommunicator (it is not a peer).
  int self = -1;
  // This process's rank in its group (the local group of an intercommunicator): what its
  // stamps name as their source.
  int rank = -1;
  bool inter = false;
  // Identifies the communicator in the same way on all its members: stamps are filed by it,
  // and a collective instance is (id, sequence number).
  std::uint64_t id = 0;
  mutable std::uint64_t collectives_entered = 0;
  // Every member has entered this communicator's collectives below this sequence number:
  // this process saw a blocking collective's entry reduction complete. A member still
  // described as waiting in one of them is about to return, not waiting for anyone.
  mutable std::atomic<std::uint64_t> entered_by_all{0};
  // Stamps that have arrived and that no posted receive claimed.
  mutable StampInbox inbox;
  // Nonblocking receives from a specific source waiting for their stamp, in the order they
  // were posted (the order in which MPI matches them).
  mutable std::vector<PostedStamp*> claims;

  // The peer index of world rank `rank`, or -1.
  int peer_of(std::int32_t rank) const {
    for (int p = 0; p < peers; ++p) {
      if (world_rank[static_cast<std::size_t>(p)] == rank) {
        return p;
      }
    }
    return -1;
  }

  std::int32_t world_rank_of(int peer) const {
    return peer >= 0 && peer < peers ? world_rank[static_cast<std::size_t>(peer)] : -1;
  }
};

class ShadowCommunicators {
public:
  // The shadow of `comm`, or nullptr when it has none (an invalid handle, MPI_COMM_NULL, or a
  // communicator made by a constructor the layer does not wrap: such communicators are
  // consistently unmonitored on all their members).
  static const Shadow* find(MPI_Comm comm);
  // The shadow with agreed id `id` (Shadow::id), or nullptr.
  static const Shadow* find_by_id(std::uint64_t id);
  // Every shadow stamps are filed to, as find_by_id sees them (under StampProtocol::Hold).
  static void for_each(const std::function<void(const Shadow&)>& visit);
  // Whether `id` may still become a communicator of this process: a member that left a
  // constructor sends stamps before the slower members have their shadow.
  static bool future_id(std::uint64_t id);

  // Gives `comm` its shadow, duplicated from `source` (collective over `source`, which must
  // have the same group as `comm` and carry no user attributes: the new communicator itself
  // for fresh constructors, the parent's `duplicate` for the dup family).
  static void attach(MPI_Comm comm, MPI_Comm source);
  // Retires the shadow of a communicator the user freed: MPI completes operations that were
  // pending on it, so the shadow lives on (its stamps are still filed, a synchronous send
  // matched meanwhile is still answered) until `in_use(shadow)` is false. Retired shadows no
  // longer in use are deleted here, with their duplicates.
  static void release(MPI_Comm comm, const std::function<bool(const Shadow&)>& in_use);

  // MPI_COMM_WORLD and MPI_COMM_SELF, at MPI_Init.
  static void attach_predefined();
};

} // namespace vcmon::runtime::mpi
