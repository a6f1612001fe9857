// What a Wait* call reports while it waits: the partners of its incomplete requests, OR for
// Wait/Waitany/Waitsome... (one suffices) and AND for Waitall. A request the layer does not
// know (another communicator, a generalized or I/O request) has no known partner: the call
// then reports Running, which never makes a decider take an unsafe message.
#include "mpi/requests/RequestsWait.hpp"

#include "mpi/layer/ProgramErrorHandlers.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

bool RequestsWait::would_return() const {
  bool any_active = false;
  for (const MPI_Request request : requests_) {
    if (passed_over(request)) {
      continue;
    }
    const bool done = request_done(request);
    if (needs_ == Needs::All && !done) {
      return false;
    }
    if (needs_ == Needs::One && done) {
      return true;
    }
    any_active = true;
  }
  return needs_ == Needs::All || !any_active;
}

bool RequestsWait::passed_over(MPI_Request request) const {
  if (request == MPI_REQUEST_NULL) {
    return true;
  }
  if (needs_ == Needs::All) {
    return false; // complete at once, as its status says
  }
  const TrackedRequest* tracked = table_.find(request);
  return tracked != nullptr && tracked->persistent() && !tracked->active;
}

RequestsWait::FirstLook RequestsWait::first_look() const {
  // An OR-wait stops at its first done request, mostly after a few: this look comes before
  // every Waitany, over thousands of requests in some programs.
  bool any_active = false;
  bool untracked_seen = false;
  bool all_done = true; // of the tracked requests so far
  for (const MPI_Request request : requests_) {
    if (passed_over(request)) {
      continue;
    }
    any_active = true;
    if (untracked(request)) {
      if (needs_ == Needs::All) {
        return FirstLook::Untracked;
      }
      untracked_seen = true;
      continue;
    }
    if (needs_ == Needs::All && !all_done) {
      continue; // only untracked requests matter now
    }
    const bool done = request_done(request);
    if (needs_ == Needs::One && done) {
      return FirstLook::Returns;
    }
    all_done = done;
  }
  if (!any_active) {
    return FirstLook::Returns; // as MPI does
  }
  if (untracked_seen) {
    return FirstLook::Untracked;
  }
  return needs_ == Needs::All && all_done ? FirstLook::Returns : FirstLook::WaitsTracked;
}

bool RequestsWait::layer_part_done() const {
  if (needs_ == Needs::One) {
    return would_return();
  }
  return std::ranges::all_of(requests_, [&](MPI_Request request) {
    if (request == MPI_REQUEST_NULL || untracked(request)) {
      return true;
    }
    return request_done(request);
  });
}

bool RequestsWait::untracked(MPI_Request request) const {
  // The table first: it takes no lock.
  return request != MPI_REQUEST_NULL && table_.find(request) == nullptr &&
         pending_.deferred.shadow_of(request) == nullptr;
}

bool RequestsWait::tracks_none() const {
  return std::ranges::all_of(requests_, [&](MPI_Request request) {
    return request == MPI_REQUEST_NULL || untracked(request);
  });
}

bool RequestsWait::keeps_clock_running() const {
  // Waitall ends after each of them, and the end of an untracked one runs the clock on to it
  // (complete_many); Waitany may end with a tracked one, whose end may set the clock back.
  return needs_ == Needs::All
             ? std::ranges::any_of(requests_,
                                   [&](MPI_Request request) { return untracked(request); })
             : tracks_none();
}

void RequestsWait::describe_wait(deadlock::ProcessState& state, bool waiting_thread) const {
  state.activity =
      needs_ == Needs::All ? deadlock::Activity::BlockedAll : deadlock::Activity::BlockedAny;
  bool wildcard = false; // a deferred wildcard receive (DeferredReceives) is among them
  for (const MPI_Request request : requests_) {
    if (request == MPI_REQUEST_NULL) {
      continue;
    }
    if (request_done(request)) {
      continue;
    }
    if (const Shadow* deferred = pending_.deferred.shadow_of(request)) {
      wildcard = true;
      add_peers(state, *deferred, MPI_ANY_SOURCE);
      // Only the waiting thread reads its communicators' inboxes. A message already here
      // ends the wait once decided: the wait is not blocked on anyone.
      if (const auto present = waiting_thread
                                   ? pending_.deferred.present_arrival(pending_.stamps, request)
                                   : std::nullopt) {
        state.present_arrival_ns =
            std::min(state.present_arrival_ns.value_or(deadlock::kNever), *present);
      }
      continue;
    }
    const TrackedRequest* tracked = table_.find(request);
    if (tracked == nullptr || tracked->shadow == nullptr ||
        (tracked->persistent() && !tracked->active)) {
      state.activity = deadlock::Activity::Running;
      state.waits_on.clear();
      return;
    }
    if (tracked->collective()) {
      if (tracked->shadow->id == 0) {
        state.activity = deadlock::Activity::Running;
        state.waits_on.clear();
        return;
      }
      state.collective = (tracked->shadow->id << 32) ^ tracked->sequence;
    }
    add_peers(state, *tracked->shadow, tracked->collective() ? MPI_ANY_SOURCE : tracked->peer);
  }
  if (wildcard) {
    // Any peer may end a wildcard receive: the whole wait is an OR-wait (beside an AND-wait's
    // other parts, the bound of an OR-wait is lower, hence safe).
    state.activity = deadlock::Activity::BlockedAny;
    state.collective.reset();
  }
}

} // namespace vcmon::runtime::mpi
