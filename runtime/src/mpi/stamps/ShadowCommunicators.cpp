#include "mpi/stamps/ShadowCommunicators.hpp"

#include "core/YieldingCompletion.hpp"
#include "mpi/layer/CallerCounters.hpp"
#include "mpi/layer/WorldRanks.hpp"

#include <algorithm>
#include <array>

namespace vcmon::runtime::mpi {
namespace {

static_assert(sizeof(MPI_Comm) == sizeof(std::int32_t), "MPICH communicator handles are ints");

// A duplicate of `source` for the layer, or MPI_COMM_NULL when MPI failed to make it. The
// user's error handler is neither changed nor made explicit on the way: MPICH treats a
// communicator that never had one set differently from one set to MPI_ERRORS_ARE_FATAL (a
// fatal error aborts over MPI_COMM_WORLD, not over the communicator), and setting it back
// after the call made an error on a split communicator end the job killed instead of with
// its error class, and one on an intercommunicator crash inside MPICH. Below the cap on
// shadows (kMaxShadows) MPI has context ids left for the duplicate.
MPI_Comm private_duplicate(MPI_Comm source) {
  MPI_Comm dup = MPI_COMM_NULL;
  if (yielding(PMPI_Comm_idup, source, &dup) != MPI_SUCCESS) {
    return MPI_COMM_NULL;
  }
  // The layer validates what it sends, so errors here would be its own: never let the
  // user's error handler (inherited by the duplicate) see them.
  PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  return dup;
}

} // namespace

ShadowCommunicators::~ShadowCommunicators() {
  for (Shadow* shadow : shadows_) {
    delete shadow;
  }
}

// Run on the new communicator itself, before the program can use it: the maximum over the
// members of `mine`. Over an intercommunicator a reduction yields the other group's values;
// reducing again what each group received gives both groups the maximum over all.
std::array<std::uint64_t, 2>
ShadowCommunicators::members_maximum(MPI_Comm comm, bool inter,
                                     const std::array<std::uint64_t, 2>& mine) {
  std::array<std::uint64_t, 2> agreed{};
  yielding(PMPI_Iallreduce, mine.data(), agreed.data(), 2, MPI_UINT64_T, MPI_MAX, comm);
  if (inter) {
    const std::array<std::uint64_t, 2> both{std::max(agreed[0], mine[0]),
                                            std::max(agreed[1], mine[1])};
    yielding(PMPI_Iallreduce, both.data(), agreed.data(), 2, MPI_UINT64_T, MPI_MAX, comm);
  }
  return agreed;
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
  // Every member must take part in the duplication, or none: first agree whether one is at
  // its cap; then on the id, the maximum of the members' counters (new to all of them), and
  // whether one failed to duplicate (the communicator then stays unmonitored on all).
  bool at_cap = false;
  {
    const StampLock::Hold hold(lock_); // other threads add and release shadows
    at_cap = shadows_.size() >= kMaxShadows;
  }
  if (members_maximum(comm, inter != 0, {at_cap ? 1u : 0u, 0})[0] != 0) {
    return;
  }
  MPI_Comm duplicate = private_duplicate(source);
  const auto [id, failed] =
      members_maximum(comm, inter != 0, {next_id_, duplicate == MPI_COMM_NULL ? 1u : 0u});
  if (failed != 0) {
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
