// What happens when MPI reports a tracked request complete (Wait*, Test*), starts a persistent
// one (Start, Startall) or frees one (Request_free). A call may complete several requests; it
// collects them into one CompletionBatch so that the clock moves once, to the latest.
#pragma once

#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/requests/RequestTable.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "core/Monitor.hpp"

#include <mpi.h>

#include <atomic>
#include <mutex>
#include <span>
#include <vector>

namespace vcmon::runtime::mpi {

struct __attribute__((visibility("hidden"))) DeferredReceive;
class DeferredReceives;
class PendingWork;
class PostedWildcards;

class RequestCompletion {
public:
  // `request` (an entry of `table`) completed with `status` and `error` in a call entered at
  // `call` whose PMPI part returned at real time `end_rt`. A receive from MPI_ANY_SOURCE posted
  // as it is settles first (PostedWildcards::completed): a caller that completed several at
  // once, or polls before this, settles each of them first.
  static void completed(Monitor& monitor, PendingWork& pending, RequestTable& table,
                        TrackedRequest& request, const MPI_Status& status, int error,
                        const vclock::Moment& call, std::uint64_t end_rt, ClockUpdate& update);

  // Before PMPI_Start: a persistent send stamps, a persistent receive notes its post (after the
  // undecided deferred receives on its communicator are posted), a persistent collective posts
  // its entry reduction (with the process's `reduction`), each posting the layer's own request
  // from `pending`'s; one from MPI_ANY_SOURCE, the program's `handle`, holds back the stamps
  // it may take (PostedWildcards).
  static void starting(Monitor& monitor, PendingWork& pending, const EntryReduction& reduction,
                       MPI_Request handle, TrackedRequest& request);
  // PMPI_Start failed: undo what starting() did.
  static void start_failed(PendingWork& pending, TrackedRequest& request);

  // MPI_Request_free of a tracked request (an entry of `table`) succeeded.
  static void freed(PendingWork& pending, RequestTable& table, TrackedRequest& request);
};

// The receives the program freed while active (MPI_Request_free): MPI would complete them
// unseen. The layer keeps each request instead (the program's handle becomes MPI_REQUEST_NULL,
// as with MPI_Request_free) and completes it itself once its message came, so that its stamp is
// taken and a synchronous sender answered: left behind, the next receive from that source took
// the stamp, and the sender's reply went unmatched. Each process's layer has its own
// (PendingWork, in the LayerContext); every LayerWork polls them.
class OrphanedReceives {
public:
  // Keeps `handle`, tracked in `table`: the orphan keeps its table, since not every LayerWork
  // is given one.
  void add(RequestTable& table, MPI_Request handle);
  // Completes the orphans whose messages came (`posted`: where one from MPI_ANY_SOURCE settles);
  // one load when there are none.
  void poll(Monitor& monitor, StampProtocol& stamps, PostedWildcards& posted) {
    if (count_.load(std::memory_order_relaxed) != 0) {
      poll_now(monitor, stamps, posted);
    }
  }
  // How many wait for their message.
  unsigned count() const { return count_.load(std::memory_order_relaxed); }
  // At MPI_Finalize: frees those still waiting for their message, as the program did.
  void free_all();

private:
  struct Orphan {
    MPI_Request handle;
    RequestTable* table; // which tracks it
  };

  void poll_now(Monitor& monitor, StampProtocol& stamps, PostedWildcards& posted);

  std::mutex mutex_;
  std::vector<Orphan> orphans_;
  std::atomic<unsigned> count_{0};
};

// The tracked requests among the arguments of one Wait*/Test* call, saved before PMPI nulls
// the handles it completes, with statuses to complete them from when the user ignores them.
// Per thread, grown to the largest call seen: no allocation in steady state.
class __attribute__((visibility("hidden"))) CompletionBatch {
public:
  static CompletionBatch& for_this_thread();

  // False when none of `requests` is tracked in `table` nor one of `deferred` (the call then needs
  // nothing from the layer).
  bool collect(RequestTable& table, DeferredReceives& deferred,
               std::span<const MPI_Request> requests);
  TrackedRequest* tracked(int index) const { return tracked_[static_cast<std::size_t>(index)]; }
  // The deferred receive whose request is at `index` (DeferredReceives::receive_of), if any.
  DeferredReceive* deferred(int index) const { return deferred_[static_cast<std::size_t>(index)]; }
  // Whether the request at `index` was active and the layer knows nothing of it (partitioned,
  // one-sided, generalized, I/O): waiting for it is the program's own time.
  bool untracked(int index) const { return untracked_[static_cast<std::size_t>(index)] != 0; }

  // Around the PMPI call that may complete them (RequestTable::hide_while_completing), in the
  // `table` they were collected from; `after`: the program's handles after the call.
  void hide_while_completing(RequestTable& table);
  void show_if_alive(RequestTable& table, const MPI_Request* after);

  // `user` unless it is MPI_STATUSES_IGNORE, else room for `count` statuses.
  MPI_Status* statuses(MPI_Status* user, int count);

private:
  std::vector<TrackedRequest*> tracked_;
  std::vector<DeferredReceive*> deferred_;
  std::vector<char> untracked_; // not vector<bool>: a byte each, no bit arithmetic
  std::vector<MPI_Status> statuses_;
};

} // namespace vcmon::runtime::mpi
