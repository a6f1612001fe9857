#include "mpi/ShadowCommunicators.hpp"

#include "mpi/HandleTable.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {
namespace {

static_assert(sizeof(MPI_Comm) == sizeof(std::int32_t), "MPICH communicator handles are ints");

// MPICH allows a few thousand context ids; each user communicator here takes three.
HandleTable<Shadow*, 2048> table;
// The same shadows, for lookups by id (state requests; rare).
std::vector<Shadow*> shadows;

std::vector<std::int32_t> world_ranks_of(MPI_Comm comm, int peers, bool inter) {
  MPI_Group group = MPI_GROUP_NULL;
  MPI_Group world = MPI_GROUP_NULL;
  if (inter) {
    PMPI_Comm_remote_group(comm, &group);
  } else {
    PMPI_Comm_group(comm, &group);
  }
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<std::int32_t> ranks(static_cast<std::size_t>(peers));
  std::vector<std::int32_t> world_ranks(ranks.size(), -1);
  for (int i = 0; i < peers; ++i) {
    ranks[static_cast<std::size_t>(i)] = i;
  }
  PMPI_Group_translate_ranks(group, peers, ranks.data(), world, world_ranks.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return world_ranks;
}

MPI_Comm private_duplicate(MPI_Comm source) {
  MPI_Comm dup = MPI_COMM_NULL;
  PMPI_Comm_dup(source, &dup);
  // The layer validates what it sends, so errors here would be its own: never let the
  // user's error handler (inherited by the duplicate) see them.
  PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  return dup;
}

} // namespace

const Shadow* ShadowCommunicators::find(MPI_Comm comm) {
  Shadow* const* entry = table.find(comm);
  return entry != nullptr ? *entry : nullptr;
}

const Shadow* ShadowCommunicators::find_by_id(std::uint64_t id) {
  for (const Shadow* shadow : shadows) {
    if (id != 0 && shadow->id == id) {
      return shadow;
    }
  }
  return nullptr;
}

void ShadowCommunicators::attach(MPI_Comm comm, MPI_Comm source) {
  if (comm == MPI_COMM_NULL) {
    return;
  }
  auto* shadow = new Shadow;
  shadow->stamps = private_duplicate(source);
  shadow->replies = private_duplicate(source);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    PMPI_Comm_remote_size(comm, &shadow->peers);
  } else {
    PMPI_Comm_size(comm, &shadow->peers);
  }
  shadow->world_rank = world_ranks_of(comm, shadow->peers, inter != 0);
  shadow->sent_to =
      std::vector<std::atomic<std::uint64_t>>(static_cast<std::size_t>(shadow->peers));
  shadow->received_from =
      std::vector<std::atomic<std::uint64_t>>(static_cast<std::size_t>(shadow->peers));
  shadow->all_in_world = std::find(shadow->world_rank.begin(), shadow->world_rank.end(), -1) ==
                         shadow->world_rank.end();
  if (!inter) {
    PMPI_Comm_rank(comm, &shadow->self);
    // Every member has given ids below its own counter to its other communicators; the
    // maximum is new to all of them.
    static std::uint64_t next_id = 1;
    PMPI_Allreduce(&next_id, &shadow->id, 1, MPI_UINT64_T, MPI_MAX, shadow->stamps);
    next_id = shadow->id + 1;
  }
  if (table.insert(comm, shadow) != nullptr) {
    shadows.push_back(shadow);
  } else {
    // Unreachable within MPICH's context-id limit; stay consistent by not monitoring it.
    PMPI_Comm_free(&shadow->stamps);
    PMPI_Comm_free(&shadow->replies);
    delete shadow;
  }
}

void ShadowCommunicators::release(MPI_Comm comm) {
  Shadow** entry = table.find(comm);
  if (entry == nullptr) {
    return;
  }
  Shadow* shadow = *entry;
  table.erase(comm);
  std::erase(shadows, shadow);
  PMPI_Comm_free(&shadow->stamps);
  PMPI_Comm_free(&shadow->replies);
  delete shadow;
}

void ShadowCommunicators::attach_predefined() {
  attach(MPI_COMM_WORLD, MPI_COMM_WORLD);
  attach(MPI_COMM_SELF, MPI_COMM_SELF);
}

} // namespace vcmon::runtime::mpi
