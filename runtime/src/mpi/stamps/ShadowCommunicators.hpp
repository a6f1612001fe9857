// Every user communicator gets a private duplicate, invisible to the program: it carries the
// virtual-time reductions of collectives and the answers to synchronous sends (one duplicate:
// each takes one of MPICH's few thousand context ids).
// Its message stamps travel by StampMail, filed under the communicator's agreed `id`, into its
// inbox or to the receives that claimed them. Lookup by handle is O(1) and touches no MPI
// state, so an invalid handle from the user falls through to PMPI unchanged.
#pragma once

#include "mpi/layer/HandleTable.hpp"
#include "mpi/stamps/PostedStamp.hpp"
#include "mpi/stamps/StampInbox.hpp"
#include "mpi/stamps/StampLock.hpp"

#include <mpi.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
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
  // An intercommunicator's local group but this process, by world rank: its collectives
  // wait for them too (MembersEntered).
  std::vector<std::int32_t> local_others;
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
  // Nonblocking receives from a specific source waiting for their stamp, and receives from
  // MPI_ANY_SOURCE posted to MPI undecided, in the order they were posted (the order in which
  // MPI matches them).
  mutable std::vector<PostedStamp*> claims;
  // Stamps that such a receive from MPI_ANY_SOURCE may take, until it has matched: no receive
  // posted after it may claim them (StampProtocol::hold_back).
  mutable StampInbox held_back;
  // Nonblocking receives from MPI_ANY_SOURCE the layer posted to MPI as they are (not deferred)
  // that have yet to take their stamp: a wildcard deferred meanwhile would be decided among
  // stamps of messages MPI gives them (DeferredReceives::must_post_undecided).
  mutable std::atomic<unsigned> posted_wildcards{0};

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

// One process's shadows (in its StampProtocol, which files stamps by them).
class ShadowCommunicators {
public:
  // Shadows added and removed under `lock` (threads file stamps meanwhile).
  explicit ShadowCommunicators(StampLock& lock) : lock_(lock) {}
  // Deletes the shadows (not their duplicates: MPI may be finalized).
  ~ShadowCommunicators();
  ShadowCommunicators(const ShadowCommunicators&) = delete;
  ShadowCommunicators& operator=(const ShadowCommunicators&) = delete;

  // The shadow of `comm`, or nullptr when it has none (an invalid handle, MPI_COMM_NULL, or a
  // communicator made by a constructor the layer does not wrap: such communicators are
  // consistently unmonitored on all their members).
  const Shadow* find(MPI_Comm comm) {
    Shadow* const* entry = table_.find(comm);
    return entry != nullptr ? *entry : nullptr;
  }
  // The shadow with agreed id `id` (Shadow::id), or nullptr.
  const Shadow* find_by_id(std::uint64_t id);
  // Every shadow stamps are filed to, as find_by_id sees them (under the stamps' lock).
  void for_each(const std::function<void(const Shadow&)>& visit) const;
  // Whether `id` may still become a communicator of this process: a member that left a
  // constructor sends stamps before the slower members have their shadow.
  bool future_id(std::uint64_t id) const { return id >= next_id_; }

  // Gives `comm` its shadow, duplicated from `source` (collective over `source`, which must
  // have the same group as `comm` and carry no user attributes: the new communicator itself
  // for fresh constructors, the parent's `duplicate` for the dup family).
  void attach(MPI_Comm comm, MPI_Comm source);
  // Retires the shadow of a communicator the user freed: MPI completes operations that were
  // pending on it, so the shadow lives on (its stamps are still filed, a synchronous send
  // matched meanwhile is still answered) until `in_use(shadow)` is false and no receive
  // claims a stamp of it. Retired shadows no longer in use are deleted here, with their
  // duplicates.
  void release(MPI_Comm comm, const std::function<bool(const Shadow&)>& in_use);

  // MPI_COMM_WORLD and MPI_COMM_SELF, at MPI_Init.
  void attach_predefined();

  // Makes `shadow` (its id agreed, above every id given so far) `comm`'s, without MPI: the
  // end of attach, and how a test gives a process its communicators.
  const Shadow& add(MPI_Comm comm, std::unique_ptr<Shadow> shadow);

private:
  // Whether a receive on `shadow` claimed a stamp that has not arrived.
  bool has_claims(const Shadow& shadow) {
    const StampLock::Hold hold(lock_);
    return !shadow.claims.empty();
  }
  static std::array<std::uint64_t, 2> members_maximum(MPI_Comm comm, bool inter,
                                                      const std::array<std::uint64_t, 2>& mine);

  // MPICH has 2048 context ids, and each shadow takes one: beyond this many, new communicators
  // stay unmonitored, which leaves the program about 1 270 of them for its own. (Duplicating
  // until MPI failed left it about 1 020, and needed the user's error handler switched off.)
  static constexpr std::size_t kMaxShadows = 768;

  StampLock& lock_;
  // MPICH allows a few thousand context ids; each user communicator here takes two.
  HandleTable<Shadow*, 2048> table_;
  // The same shadows, for lookups by id (every stamp is filed by its communicator's id).
  std::vector<Shadow*> shadows_;
  const Shadow* last_found_ = nullptr; // most stamps come on the communicator of the one before
  // Shadows of communicators the user freed, while requests may still refer to them.
  std::vector<Shadow*> retired_;
  std::atomic_flag retired_lock_ = ATOMIC_FLAG_INIT; // threads may free communicators at once
  // Every member has given ids below its own counter to its other communicators.
  std::uint64_t next_id_ = 1;
};

} // namespace vcmon::runtime::mpi
