// What the layer remembers about a user request until MPI completes (or frees) it, keyed by
// the request handle: O(1), preallocated, no allocation. Only requests whose completion needs
// the layer are here: receives (they take their stamp at completion), synchronous sends (the
// reply), persistent requests (they stamp at every start) and nonblocking collectives; and
// standard sends, so that a rank waiting for them can say whom it waits for.
#pragma once

#include "core/ProbeCore.hpp"
#include "mpi/layer/HandleTable.hpp"
#include "mpi/requests/LayerRequests.hpp"
#include "mpi/stamps/PostedStamp.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "vcmon/tables/Site.hpp"

#include <mpi.h>

#include <cstdint>
#include <utility>

namespace vcmon::runtime::mpi {

struct TrackedRequest {
  enum class Kind : std::uint8_t {
    Send,
    Receive,
    SyncSend,
    PersistentSend,
    PersistentReceive,
    Collective,
    PersistentCollective
  };

  Kind kind = Kind::Receive;
  bool synchronous = false; // PersistentSend from Ssend_init
  bool active = false;      // persistent requests: started and not yet completed
  tables::SiteId site = tables::kNoSite;
  const Shadow* shadow = nullptr;
  int peer = MPI_PROC_NULL;      // sends: destination; receives: source (or MPI_ANY_SOURCE)
  int tag = 0;                   // persistent sends, receives: tag
  std::uint64_t sequence = 0;    // collectives: the sequence number on the communicator
  CollectiveCall call;           // PersistentCollective: what each start's entry says
  std::uint64_t bytes = 0;       // persistent sends: stamped at each start
  vclock::Moment post;           // when posted (persistent: when last started)
  std::uint64_t own_ns = 0;      // the posting call's own time (nonblocking calls)
  StatementContext context;      // receives: the posting statement's calling context
  LayerRequest* layer = nullptr; // SyncSend, active synchronous PersistentSend, collectives
  PostedStamp stamp;             // receives: claimed (a specific source) or a marker, while active
  // A receive from MPI_ANY_SOURCE posted as it is: its index in PostedWildcards until settled.
  static constexpr std::uint32_t kNoWildcardSlot = UINT32_MAX;
  std::uint32_t wildcard_slot = kNoWildcardSlot;

  bool persistent() const {
    return kind == Kind::PersistentSend || kind == Kind::PersistentReceive ||
           kind == Kind::PersistentCollective;
  }
  bool collective() const { return kind == Kind::Collective || kind == Kind::PersistentCollective; }
};

static_assert(sizeof(MPI_Request) == sizeof(std::int32_t), "MPICH request handles are ints");

// A program rarely keeps more requests in flight; beyond, requests go untracked (documented in
// docs/pmpi.md: their receives leave their stamps behind). One per process, in its LayerContext,
// passed to what completes, starts or frees requests.
class RequestTable {
public:
  // Stores `tracked` under `request`; nullptr when full, or when `request` is one of MPICH's
  // built-in request handles: an operation complete at once (a nonblocking collective on one
  // process, for instance) gets a preallocated handle that every such operation shares, so it
  // names no operation in particular and stays untracked.
  TrackedRequest* insert(MPI_Request request, const TrackedRequest& tracked) {
    return shared_handle(request) ? nullptr : table_.insert(request, tracked);
  }
  TrackedRequest* find(MPI_Request request) { return table_.find(request); }
  void erase(TrackedRequest& entry) { table_.erase_entry(entry); }

  // Around a PMPI call that may complete the request of `entry` (nullptr: untracked): once
  // MPI completed it, MPI may give its handle to another thread's new request before this
  // thread has dealt with the completion (MPI_THREAD_MULTIPLE). The entry is hidden from
  // lookups and inserts meanwhile, and shown again under `handle_after` (the program's handle
  // after the call) if the request lives on; a completed one stays hidden until erased. No
  // work unless several threads may call MPI at once.
  void hide_while_completing(TrackedRequest* entry) {
    if (entry != nullptr && CallerCounters::concurrent_callers()) {
      table_.hide(*entry);
    }
  }
  void show_if_alive(MPI_Request handle_after, TrackedRequest* entry) {
    if (entry != nullptr && CallerCounters::concurrent_callers() &&
        handle_after != MPI_REQUEST_NULL) {
      table_.show(handle_after, *entry);
    }
  }
  template <typename Predicate> bool any_of(Predicate&& predicate) const {
    return table_.any_of(std::forward<Predicate>(predicate));
  }

private:
  // MPICH handles carry their kind in the top two bits; 1 is "built-in".
  static bool shared_handle(MPI_Request request) {
    return (static_cast<std::uint32_t>(request) >> 30) == 1;
  }
  HandleTable<TrackedRequest, 16384> table_;
};

} // namespace vcmon::runtime::mpi
