#include "mpi/stamps/ShadowCommunicators.hpp"

#include "core/YieldingCompletion.hpp"
#include "mpi/layer/CallerCounters.hpp"
#include "mpi/layer/WorldRanks.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {
namespace {

static_assert(sizeof(MPI_Comm) == sizeof(std::int32_t), "MPICH communicator handles are ints");

// A duplicate of `source` for the layer, or MPI_COMM_NULL when MPI has no context id left
// for it (the program's own communicators may use them all): the layer's failure must not
// reach the user's error handler.
MPI_Comm private_duplicate(MPI_Comm source) {
  MPI_Errhandler user = MPI_ERRHANDLER_NULL;
  PMPI_Comm_get_errhandler(source, &user);
  PMPI_Comm_set_errhandler(source, MPI_ERRORS_RETURN);
  MPI_Comm dup = MPI_COMM_NULL;
  if (yielding(PMPI_Comm_idup, source, &dup) != MPI_SUCCESS) {
    dup = MPI_COMM_NULL;
  }
  PMPI_Comm_set_errhandler(source, user);
  PMPI_Errhandler_free(&user);
  // The layer validates what it sends, so errors here would be its own: never let the
  // user's error handler (inherited by the duplicate) see them.
  if (dup != MPI_COMM_NULL) {
    PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  }
  return dup;
}

} // namespace

ShadowCommunicators::~ShadowCommunicators() {
  for (Shadow* shadow : shadows_) {
    delete shadow;
  }
}

// Run on the new communicator itself, before the program can use it: the maximum of the
// members' counters, new to all of them (0 when a member has no duplicate: the communicator
// then stays unmonitored on every member). Over an intercommunicator a reduction yields the
// other group's values; reducing again what each group received gives both groups the
// maximum over all.
std::uint64_t ShadowCommunicators::agreed_id(MPI_Comm comm, bool inter, bool duplicated) const {
  const std::uint64_t mine[2] = {next_id_, duplicated ? 0u : 1u};
  std::uint64_t agreed[2] = {0, 0};
  yielding(PMPI_Iallreduce, mine, agreed, 2, MPI_UINT64_T, MPI_MAX, comm);
  if (inter) {
    const std::uint64_t both[2] = {std::max(agreed[0], mine[0]), std::max(agreed[1], mine[1])};
    yielding(PMPI_Iallreduce, both, agreed, 2, MPI_UINT64_T, MPI_MAX, comm);
  }
  return agreed[1] != 0 ? 0 : agreed[0];
}

void ShadowCommunicators::for_each(const std::function<void(const Shadow&)>& visit) const {
  for (const Shadow* shadow : shadows_) {
    visit(*shadow);
  }
}

const Shadow* ShadowCommunicators::find_by_id(std::uint64_t id) {
  if (last_found_ != nullptr && last_found_->id == id) {
    return last_found_;
  }
  for (const Shadow* shadow : shadows_) {
    if (id != 0 && shadow->id == id) {
      last_found_ = shadow;
      return shadow;
    }
  }
  return nullptr;
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
  int rank = -1;
  PMPI_Comm_rank(comm, &rank);
  std::vector<std::int32_t> local_others;
  if (inter) {
    int local_size = 0;
    PMPI_Comm_size(comm, &local_size);
    local_others = world_ranks_of(comm, local_size, false);
    local_others.erase(local_others.begin() + rank);
  }
  // A member outside MPI_COMM_WORLD (dynamic processes) has no address for stamps: every
  // member has such a peer (or local member), so the communicator stays unmonitored on all.
  if (std::ranges::find(world_rank, -1) != world_rank.end() ||
      std::ranges::find(local_others, -1) != local_others.end()) {
    return;
  }
  MPI_Comm duplicate = private_duplicate(source);
  const std::uint64_t id = agreed_id(comm, inter != 0, duplicate != MPI_COMM_NULL);
  if (id == 0) {
    if (duplicate != MPI_COMM_NULL) {
      PMPI_Comm_free(&duplicate);
    }
    return;
  }
  auto shadow = std::make_unique<Shadow>();
  shadow->duplicate = duplicate;
  shadow->peers = peers;
  shadow->inter = inter != 0;
  shadow->world_rank = std::move(world_rank);
  shadow->local_others = std::move(local_others);
  shadow->rank = rank;
  if (!inter) {
    shadow->self = shadow->rank;
  }
  shadow->id = id;
  add(comm, std::move(shadow));
}

const Shadow& ShadowCommunicators::add(MPI_Comm comm, std::unique_ptr<Shadow> owned) {
  Shadow* const shadow = owned.release();
  // The table holds as many communicators as MPICH has context ids for two each.
  table_.insert(comm, shadow);
  // Other threads file stamps by id (StampProtocol, under its lock) meanwhile.
  const StampLock::Hold hold(lock_);
  next_id_ = shadow->id + 1;
  shadows_.push_back(shadow);
  return *shadow;
}

void ShadowCommunicators::release(MPI_Comm comm, const std::function<bool(const Shadow&)>& in_use) {
  std::vector<Shadow*> unused;
  {
    const CallerLock lock(retired_lock_);
    if (Shadow** entry = table_.find(comm)) {
      Shadow* shadow = *entry;
      table_.erase(comm);
      retired_.push_back(shadow);
    }
    std::erase_if(retired_, [&](Shadow* shadow) {
      if (has_claims(*shadow) || in_use(*shadow)) {
        return false;
      }
      unused.push_back(shadow);
      return true;
    });
  }
  if (unused.empty()) {
    return;
  }
  {
    // No thread filing a stamp may find them any more.
    const StampLock::Hold hold(lock_);
    for (Shadow* shadow : unused) {
      std::erase(shadows_, shadow);
      if (last_found_ == shadow) {
        last_found_ = nullptr;
      }
    }
  }
  for (Shadow* shadow : unused) {
    PMPI_Comm_free(&shadow->duplicate);
    delete shadow;
  }
}

void ShadowCommunicators::attach_predefined() {
  attach(MPI_COMM_WORLD, MPI_COMM_WORLD);
  attach(MPI_COMM_SELF, MPI_COMM_SELF);
}

} // namespace vcmon::runtime::mpi
