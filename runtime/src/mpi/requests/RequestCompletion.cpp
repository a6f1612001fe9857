#include "mpi/requests/RequestCompletion.hpp"

#include "mpi/layer/ProgramErrorHandlers.hpp"
#include "mpi/requests/CompletionLedger.hpp"
#include "mpi/requests/DeferredReceives.hpp"
#include "mpi/requests/PendingWork.hpp"
#include "mpi/requests/Receipt.hpp"
#include "mpi/stamps/StampProtocol.hpp"

#include <mutex>
#include <vector>

namespace vcmon::runtime::mpi {
namespace {

// A receive from MPI_ANY_SOURCE posted to MPI as it is has taken its stamp, or none
// (Shadow::posted_wildcards).
void wildcard_settled(const TrackedRequest& request) {
  if (request.kind == TrackedRequest::Kind::Receive && request.peer == MPI_ANY_SOURCE) {
    request.shadow->posted_wildcards.fetch_sub(1, std::memory_order_relaxed);
  }
}

} // namespace

void RequestCompletion::completed(Monitor& monitor, PendingWork& pending, RequestTable& table,
                                  TrackedRequest& request, const MPI_Status& status, int error,
                                  const vclock::Moment& call, std::uint64_t end_rt,
                                  ClockUpdate& update) {
  StampProtocol& stamps = pending.stamps;
  if (request.persistent() && !request.active) {
    return; // an inactive persistent request completes at once, with an empty status
  }
  switch (request.kind) {
  case TrackedRequest::Kind::Send:
    // Recorded when posted; the completion call holds the time it took.
    if (update.ledger != nullptr) {
      update.ledger->add_untimed(request.shadow->world_rank_of(request.peer));
    }
    break;
  case TrackedRequest::Kind::Receive:
  case TrackedRequest::Kind::PersistentReceive:
    pending.posted_wildcards.completed(request, error, status);
    if (!Receipt::consumed_request(error, status)) {
      stamps.abandon(*request.shadow, request.stamp);
    } else {
      // The stamp claimed when the receive was posted, else (nullptr) taken in Receipt.
      const bool claimed = stamps.claimed(request.stamp);
      const vclock::MessageStamp stamp =
          claimed ? stamps.finish(*request.shadow, request.stamp, status.MPI_TAG)
                  : vclock::MessageStamp{};
      Receipt::taken(monitor, stamps,
                     {request.site, *request.shadow, request.post, request.own_ns, request.context},
                     {call, end_rt, error, status}, update, claimed ? &stamp : nullptr);
    }
    break;
  case TrackedRequest::Kind::SyncSend:
  case TrackedRequest::Kind::PersistentSend:
    if (request.layer != nullptr) {
      int cancelled = 0;
      PMPI_Test_cancelled(&status, &cancelled);
      if (error == MPI_SUCCESS && !cancelled) {
        LayerRequests::user_completed(monitor, *request.layer, call, update);
      } else {
        LayerRequests::withdraw(*request.layer);
      }
      request.layer = nullptr;
    } else if (request.kind == TrackedRequest::Kind::PersistentSend) {
      const std::int32_t partner = request.shadow->world_rank_of(request.peer);
      monitor.record_com(request.site, partner, 0, 0, request.bytes);
      if (update.ledger != nullptr) {
        update.ledger->add_untimed(partner);
      }
    }
    break;
  case TrackedRequest::Kind::Collective:
  case TrackedRequest::Kind::PersistentCollective:
    LayerRequests::user_completed(monitor, *request.layer, call, update);
    request.layer = nullptr;
    break;
  }
  if (request.persistent()) {
    request.active = false;
  } else {
    wildcard_settled(request);
    table.erase(request);
  }
}

void RequestCompletion::starting(Monitor& monitor, PendingWork& pending,
                                 const EntryReduction& reduction, MPI_Request handle,
                                 TrackedRequest& request) {
  StampProtocol& stamps = pending.stamps;
  LayerRequests& layer_requests = pending.layer_requests;
  if (request.kind == TrackedRequest::Kind::PersistentReceive) {
    pending.deferred.before_matching(*request.shadow);
  }
  request.post = vclock::Moment::now(monitor.clock());
  request.active = true;
  if (request.kind == TrackedRequest::Kind::PersistentCollective) {
    const Shadow& shadow = *request.shadow;
    request.sequence = shadow.collectives_entered++;
    request.layer = &layer_requests.post_collective_entry(
        reduction, shadow, request.site, request.bytes, request.sequence,
        CollectiveEntry(request.post, request.call));
    return;
  }
  if (request.kind == TrackedRequest::Kind::PersistentReceive) {
    if (request.peer != MPI_ANY_SOURCE) {
      stamps.claim(*request.shadow, request.peer, request.tag, request.stamp);
    } else {
      pending.posted_wildcards.posting(handle, request);
    }
  }
  if (request.kind != TrackedRequest::Kind::PersistentSend) {
    return;
  }
  const Shadow& shadow = *request.shadow;
  if (request.synchronous) {
    request.layer = &layer_requests.post_sync_reply(shadow, request.peer, request.tag, request.site,
                                                    request.bytes);
  }
  stamps.send_stamp(
      monitor.clock(), shadow, request.peer, request.tag,
      {request.post.vt, request.post.rt, request.bytes, request.synchronous ? kSynchronous : 0});
}

void RequestCompletion::start_failed(PendingWork& pending, TrackedRequest& request) {
  StampProtocol& stamps = pending.stamps;
  request.active = false;
  pending.posted_wildcards.forget(request);
  if (stamps.claimed(request.stamp)) {
    stamps.abandon(*request.shadow, request.stamp);
  }
  if (request.layer != nullptr) {
    LayerRequests::withdraw(*request.layer);
    request.layer = nullptr;
  }
}

void RequestCompletion::freed(PendingWork& pending, RequestTable& table, TrackedRequest& request) {
  StampProtocol& stamps = pending.stamps;
  // A freed request that is still active completes unseen: a synchronous send's reply still
  // comes, unused.
  if (request.layer != nullptr) {
    LayerRequests::forget(*request.layer);
  }
  if (stamps.claimed(request.stamp)) {
    stamps.release(*request.shadow, request.stamp);
  }
  table.erase(request);
}

void OrphanedReceives::add(RequestTable& table, MPI_Request handle) {
  const std::lock_guard lock(mutex_);
  orphans_.push_back({handle, &table});
  count_.fetch_add(1, std::memory_order_relaxed);
}

void OrphanedReceives::poll_now(Monitor& monitor, StampProtocol& stamps, PostedWildcards& posted) {
  const std::lock_guard lock(mutex_);
  std::erase_if(orphans_, [&](const Orphan& orphan) {
    RequestTable& table = *orphan.table;
    MPI_Request request = orphan.handle;
    int done = 0;
    MPI_Status status;
    TrackedRequest* tracked = table.find(orphan.handle);
    table.hide_while_completing(tracked);
    const ProgramErrorHandlers::Look look; // nobody completes a freed request: no error raised
    const int error = PMPI_Test(&request, &done, &status);
    table.show_if_alive(request, tracked);
    if (!done) {
      return false;
    }
    if (tracked != nullptr) {
      posted.completed(*tracked, error, status); // before a poll may read its freed handle
      if (!Receipt::consumed_request(error, status)) {
        stamps.abandon(*tracked->shadow, tracked->stamp);
      } else if (stamps.claimed(tracked->stamp)) {
        const vclock::MessageStamp stamp =
            stamps.finish(*tracked->shadow, tracked->stamp, status.MPI_TAG);
        Receipt::unseen(monitor, stamps,
                        {tracked->site, *tracked->shadow, tracked->post, 0, tracked->context},
                        error, status, &stamp);
      } else {
        Receipt::unseen(monitor, stamps,
                        {tracked->site, *tracked->shadow, tracked->post, 0, tracked->context},
                        error, status);
      }
      wildcard_settled(*tracked);
      table.erase(*tracked);
    }
    count_.fetch_sub(1, std::memory_order_relaxed);
    return true;
  });
}

void OrphanedReceives::free_all() {
  const std::lock_guard lock(mutex_);
  for (Orphan& orphan : orphans_) {
    if (TrackedRequest* tracked = orphan.table->find(orphan.handle)) {
      orphan.table->erase(*tracked);
    }
    PMPI_Request_free(&orphan.handle);
  }
  orphans_.clear();
  count_.store(0, std::memory_order_relaxed);
}

CompletionBatch& CompletionBatch::for_this_thread() {
  static thread_local CompletionBatch batch;
  return batch;
}

bool CompletionBatch::collect(RequestTable& table, DeferredReceives& deferred,
                              std::span<const MPI_Request> requests) {
  tracked_.resize(requests.size());
  deferred_.assign(requests.size(), nullptr);
  untracked_.assign(requests.size(), 0);
  const bool deferring = deferred.exist();
  bool any = false;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    tracked_[i] = requests[i] != MPI_REQUEST_NULL ? table.find(requests[i]) : nullptr;
    deferred_[i] = tracked_[i] == nullptr && requests[i] != MPI_REQUEST_NULL && deferring
                       ? deferred.receive_of(requests[i])
                       : nullptr;
    untracked_[i] =
        requests[i] != MPI_REQUEST_NULL && tracked_[i] == nullptr && deferred_[i] == nullptr;
    any = any || tracked_[i] != nullptr || deferred_[i] != nullptr;
  }
  return any;
}

void CompletionBatch::hide_while_completing(RequestTable& table) {
  for (TrackedRequest* tracked : tracked_) {
    table.hide_while_completing(tracked);
  }
}

void CompletionBatch::show_if_alive(RequestTable& table, const MPI_Request* after) {
  for (std::size_t i = 0; i < tracked_.size(); ++i) {
    table.show_if_alive(after[i], tracked_[i]);
  }
}

MPI_Status* CompletionBatch::statuses(MPI_Status* user, int count) {
  if (user != MPI_STATUSES_IGNORE) {
    return user;
  }
  statuses_.resize(static_cast<std::size_t>(count));
  return statuses_.data();
}

} // namespace vcmon::runtime::mpi
