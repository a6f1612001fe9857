#include "mpi/ShadowCommunicators.hpp"

#include "mpi/HandleTable.hpp"
#include "mpi/WorldRanks.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {
namespace {

static_assert(sizeof(MPI_Comm) == sizeof(std::int32_t), "MPICH communicator handles are ints");

// MPICH allows a few thousand context ids; each user communicator here takes three.
HandleTable<Shadow*, 2048> table;
// The same shadows, for lookups by id (every stamp is filed by its communicator's id).
std::vector<Shadow*> shadows;
const Shadow* last_found = nullptr; // most stamps come on the communicator of the one before
// Shadows of communicators the user freed, while requests may still refer to them.
std::vector<Shadow*> retired;
// Every member has given ids below its own counter to its other communicators.
std::uint64_t next_id = 1;

MPI_Comm private_duplicate(MPI_Comm source) {
  MPI_Comm dup = MPI_COMM_NULL;
  PMPI_Comm_dup(source, &dup);
  // The layer validates what it sends, so errors here would be its own: never let the
  // user's error handler (inherited by the duplicate) see them.
  PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  return dup;
}

// The maximum of the members' counters: new to all of them. Over an intercommunicator a
// reduction yields the other group's values; reducing again what each group received gives
// both groups the maximum over all.
std::uint64_t agreed_id(MPI_Comm comm, bool inter) {
  std::uint64_t id = 0;
  PMPI_Allreduce(&next_id, &id, 1, MPI_UINT64_T, MPI_MAX, comm);
  if (inter) {
    const std::uint64_t both = std::max(id, next_id);
    PMPI_Allreduce(&both, &id, 1, MPI_UINT64_T, MPI_MAX, comm);
  }
  return id;
}

} // namespace

const Shadow* ShadowCommunicators::find(MPI_Comm comm) {
  Shadow* const* entry = table.find(comm);
  return entry != nullptr ? *entry : nullptr;
}

const Shadow* ShadowCommunicators::find_by_id(std::uint64_t id) {
  if (last_found != nullptr && last_found->id == id) {
    return last_found;
  }
  for (const Shadow* shadow : shadows) {
    if (id != 0 && shadow->id == id) {
      last_found = shadow;
      return shadow;
    }
  }
  return nullptr;
}

bool ShadowCommunicators::future_id(std::uint64_t id) {
  return id >= next_id;
}

void ShadowCommunicators::attach(MPI_Comm comm, MPI_Comm source) {
  if (comm == MPI_COMM_NULL) {
    return;
  }
  int inter = 0;
  int peers = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    PMPI_Comm_remote_size(comm, &peers);
  } else {
    PMPI_Comm_size(comm, &peers);
  }
  std::vector<std::int32_t> world_rank = world_ranks_of(comm, peers, inter != 0);
  // A peer outside MPI_COMM_WORLD (dynamic processes) has no address for stamps: every
  // member has such a peer, so the communicator stays unmonitored on all of them.
  if (std::find(world_rank.begin(), world_rank.end(), -1) != world_rank.end()) {
    return;
  }
  auto* shadow = new Shadow;
  shadow->sync = private_duplicate(source);
  shadow->replies = private_duplicate(source);
  shadow->peers = peers;
  shadow->inter = inter != 0;
  shadow->world_rank = std::move(world_rank);
  shadow->sent_to = std::vector<std::atomic<std::uint64_t>>(static_cast<std::size_t>(peers));
  shadow->received_from = std::vector<std::atomic<std::uint64_t>>(static_cast<std::size_t>(peers));
  PMPI_Comm_rank(comm, &shadow->rank);
  if (!inter) {
    shadow->self = shadow->rank;
  }
  shadow->id = agreed_id(shadow->sync, inter != 0);
  next_id = shadow->id + 1;
  if (table.insert(comm, shadow) != nullptr) {
    shadows.push_back(shadow);
  } else {
    // Unreachable within MPICH's context-id limit; stay consistent by not monitoring it.
    PMPI_Comm_free(&shadow->sync);
    PMPI_Comm_free(&shadow->replies);
    delete shadow;
  }
}

void ShadowCommunicators::release(MPI_Comm comm, const std::function<bool(const Shadow&)>& in_use) {
  if (Shadow** entry = table.find(comm)) {
    Shadow* shadow = *entry;
    table.erase(comm);
    PMPI_Comm_free(&shadow->sync);
    PMPI_Comm_free(&shadow->replies);
    retired.push_back(shadow);
  }
  std::erase_if(retired, [&](Shadow* shadow) {
    if (!shadow->claims.empty() || in_use(*shadow)) {
      return false;
    }
    std::erase(shadows, shadow);
    if (last_found == shadow) {
      last_found = nullptr;
    }
    delete shadow;
    return true;
  });
}

void ShadowCommunicators::attach_predefined() {
  attach(MPI_COMM_WORLD, MPI_COMM_WORLD);
  attach(MPI_COMM_SELF, MPI_COMM_SELF);
}

} // namespace vcmon::runtime::mpi
