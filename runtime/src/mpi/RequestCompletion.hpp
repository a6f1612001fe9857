// What happens when MPI reports a tracked request complete (Wait*, Test*), starts a persistent
// one (Start, Startall) or frees one (Request_free). A call may complete several requests; it
// collects them into one CompletionBatch so that the clock moves once, to the latest.
#pragma once

#include "mpi/ClockUpdate.hpp"
#include "mpi/Moment.hpp"
#include "mpi/RequestTable.hpp"

#include "core/Monitor.hpp"

#include <mpi.h>

#include <span>
#include <vector>

namespace vcmon::runtime::mpi {

class RequestCompletion {
public:
  // `request` (handle `handle`) completed with `status` and `error` in a call entered at
  // `call` whose PMPI part returned at real time `end_rt`.
  static void completed(Monitor& monitor, MPI_Request handle, TrackedRequest& request,
                        const MPI_Status& status, int error, const Moment& call,
                        std::uint64_t end_rt, ClockUpdate& update);

  // Before PMPI_Start: a persistent send stamps, a persistent receive notes its post.
  static void starting(Monitor& monitor, TrackedRequest& request);
  // PMPI_Start failed: undo what starting() did.
  static void start_failed(TrackedRequest& request);

  // MPI_Request_free of a tracked request (handle `handle`) succeeded.
  static void freed(MPI_Request handle, TrackedRequest& request);
};

// The tracked requests among the arguments of one Wait*/Test* call, saved before PMPI nulls
// the handles it completes, with statuses to complete them from when the user ignores them.
// Per thread, grown to the largest call seen: no allocation in steady state.
class CompletionBatch {
public:
  static CompletionBatch& for_this_thread();

  // False when none of `requests` is tracked (the call then needs nothing from the layer).
  bool collect(std::span<const MPI_Request> requests);
  TrackedRequest* tracked(int index) const { return tracked_[static_cast<std::size_t>(index)]; }
  MPI_Request handle(int index) const { return handles_[static_cast<std::size_t>(index)]; }

  // `user` unless it is MPI_STATUSES_IGNORE, else room for `count` statuses.
  MPI_Status* statuses(MPI_Status* user, int count);

private:
  std::vector<MPI_Request> handles_;
  std::vector<TrackedRequest*> tracked_;
  std::vector<MPI_Status> statuses_;
};

} // namespace vcmon::runtime::mpi
