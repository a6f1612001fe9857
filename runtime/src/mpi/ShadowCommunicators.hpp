// Every user communicator gets private duplicates, invisible to the program: `stamps` carries
// the message stamps (same destination, same tag as the data) and the virtual-time reductions
// of collectives; `replies` carries the answers to synchronous sends. Lookup by handle is O(1)
// and touches no MPI state, so an invalid handle from the user falls through to PMPI unchanged.
#pragma once

#include "mpi/StampInbox.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace vcmon::runtime::mpi {

struct Shadow {
  MPI_Comm stamps = MPI_COMM_NULL;
  MPI_Comm replies = MPI_COMM_NULL;
  // Valid destination ranks are [0, peers); for an intercommunicator, the remote group.
  int peers = 0;
  // Rank in MPI_COMM_WORLD of each peer (records name partners by world rank).
  std::vector<std::int32_t> world_rank;
  // This process's rank among the peers; -1 for an intercommunicator (it is not a peer).
  int self = -1;
  // False when a peer lies outside MPI_COMM_WORLD (dynamic processes): the control channel
  // cannot reach it, so wildcard receives on this communicator are left to MPI.
  bool all_in_world = true;
  // Identifies the communicator in the same way on all its members (0 for
  // intercommunicators), so that a collective instance is (id, sequence number).
  std::uint64_t id = 0;
  mutable std::uint64_t collectives_entered = 0;
  // Stamps pulled ahead of their data by wildcard decisions.
  mutable StampInbox inbox;
  // Stamps sent to and received from each peer: a decider uses a reply's clock as a bound only
  // once every stamp its sender had sent it has arrived (a message may still be in flight).
  mutable std::vector<std::atomic<std::uint64_t>> sent_to;
  mutable std::vector<std::atomic<std::uint64_t>> received_from;

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
  // The intracommunicator shadow with agreed id `id` (Shadow::id), or nullptr.
  static const Shadow* find_by_id(std::uint64_t id);

  // Gives `comm` its shadow, duplicated from `source` (collective over `source`, which must
  // have the same group as `comm` and carry no user attributes: the new communicator itself
  // for fresh constructors, the parent's `stamps` for the dup family).
  static void attach(MPI_Comm comm, MPI_Comm source);
  // Frees the shadow of a communicator the user is freeing (call before PMPI_Comm_free;
  // collective like it).
  static void release(MPI_Comm comm);

  // MPI_COMM_WORLD and MPI_COMM_SELF, at MPI_Init.
  static void attach_predefined();
};

} // namespace vcmon::runtime::mpi
