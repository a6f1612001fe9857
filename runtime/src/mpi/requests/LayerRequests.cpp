#include "mpi/requests/LayerRequests.hpp"

#include "mpi/requests/CompletionLedger.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <new>
#include <sched.h>

namespace vcmon::runtime::mpi {
namespace {

vclock::Moment partner_of(const LayerRequest& request) {
  if (request.purpose == LayerRequest::Purpose::SyncReply) {
    return {request.reply.post_vt, request.reply.post_rt};
  }
  return {request.reduced.latest_vt(), request.reduced.latest_rt()};
}

// Records the operation and returns the virtual time (common base) it completes at. When a
// completion call completed it (`ledger`, or later its `completion_site`), the posting call
// keeps the count and bytes, the completion call the waiting (CompletionLedger).
std::uint64_t settle(Monitor& monitor, const LayerRequest& request, const vclock::Moment& call,
                     std::uint64_t end_rt, CompletionLedger* ledger = nullptr) {
  if (request.purpose == LayerRequest::Purpose::CollectiveEntry) {
    request.reduction->check_match(request.reduced, request.sequence);
  }
  const vclock::Moment partner = seen_by(partner_of(request), end_rt);
  if (ledger != nullptr) {
    monitor.record_com(request.site, request.partner, 0, 0, request.bytes);
    ledger->add_timed(request.partner, std::max(call.vt, partner.vt));
  } else if (request.completion_site != tables::kNoSite) {
    monitor.record_com(request.site, request.partner, 0, 0, request.bytes);
    monitor.record_com(request.completion_site, request.partner, transfer_ns(call, partner, end_rt),
                       vclock::elapsed(call.vt, partner.vt), 0, false);
  } else {
    monitor.record_com(request.site, request.partner, transfer_ns(call, partner, end_rt),
                       vclock::elapsed(call.vt, partner.vt), request.bytes);
  }
  return completion_vt(call, partner, end_rt);
}

} // namespace

LayerRequests::LayerRequests() : pool_(static_cast<Pool*>(std::calloc(1, sizeof(Pool)))) {
  if (pool_ == nullptr) {
    throw std::bad_alloc();
  }
}

LayerRequests::~LayerRequests() {
  const auto in_use = [](const LayerRequest& slot) {
    return slot.in_use.load(std::memory_order_acquire);
  };
  if (std::any_of(std::begin(pool_->slots), std::end(pool_->slots), in_use)) {
    static_cast<void>(pool_.release());
  }
}

LayerRequest& LayerRequests::acquire() {
  const std::size_t start = cursor_.fetch_add(1, std::memory_order_relaxed);
  for (std::size_t i = 0; i < kPoolSize; ++i) {
    LayerRequest& slot = pool_->slots[(start + i) % kPoolSize];
    bool expected = false;
    if (slot.in_use.compare_exchange_strong(expected, true, std::memory_order_acquire)) {
      slot.request = MPI_REQUEST_NULL;
      slot.settle = true;
      slot.completion_site = tables::kNoSite;
      slot.owner = this;
      slot.pooled = true;
      return slot;
    }
  }
  auto* request = new LayerRequest;
  request->owner = this;
  request->pooled = false;
  request->in_use.store(true, std::memory_order_relaxed);
  return *request;
}

void LayerRequests::release(LayerRequest& request) {
  if (request.pooled) {
    request.in_use.store(false, std::memory_order_release);
  } else {
    delete &request;
  }
}

LayerRequest& LayerRequests::post_sync_reply(const Shadow& shadow, int dest, int tag,
                                             tables::SiteId site, std::uint64_t bytes) {
  LayerRequest& request = acquire();
  request.purpose = LayerRequest::Purpose::SyncReply;
  request.site = site;
  request.partner = shadow.world_rank_of(dest);
  request.bytes = bytes;
  StampProtocol::post_reply_receive(shadow, dest, tag, request.reply, request.request);
  return request;
}

LayerRequest& LayerRequests::post_collective_entry(const EntryReduction& reduction,
                                                   const Shadow& shadow, tables::SiteId site,
                                                   std::uint64_t bytes, std::uint64_t sequence,
                                                   const CollectiveEntry& entry) {
  LayerRequest& request = acquire();
  request.purpose = LayerRequest::Purpose::CollectiveEntry;
  request.site = site;
  request.partner = tables::ComRecord::kCollective;
  request.bytes = bytes;
  request.sequence = sequence;
  request.reduction = &reduction;
  request.entry = entry;
  reduction.start(request.entry, request.reduced, shadow.duplicate, &request.request);
  return request;
}

void LayerRequests::user_completed(Monitor& monitor, LayerRequest& request,
                                   const vclock::Moment& call, ClockUpdate& update) {
  const vclock::Moment end = vclock::Moment::now(monitor.clock());
  int done = 0;
  PMPI_Test(&request.request, &done, MPI_STATUS_IGNORE);
  if (done) {
    update.include(settle(monitor, request, call, end.rt, update.ledger));
    release(request);
    return;
  }
  // Its reply, or the others' entries, come later: charged then to the completion call.
  request.completion_site = tables::kNoSite;
  if (update.ledger != nullptr) {
    request.completion_site = update.ledger->site();
    update.ledger->add_pending();
  }
  request.call = call;
  request.end_rt = end.rt;
  request.vt_then = end.vt;
  request.owner->defer(request);
}

void LayerRequests::withdraw(LayerRequest& request) {
  if (request.purpose == LayerRequest::Purpose::SyncReply) {
    PMPI_Cancel(&request.request);
    PMPI_Wait(&request.request, MPI_STATUS_IGNORE);
    release(request);
    return;
  }
  forget(request);
}

void LayerRequests::forget(LayerRequest& request) {
  request.settle = false;
  request.owner->defer(request);
}

void LayerRequests::defer(LayerRequest& request) {
  const std::lock_guard lock(deferred_mutex_);
  deferred_.push_back(&request);
  deferred_count_.fetch_add(1, std::memory_order_relaxed);
}

void LayerRequests::poll_deferred(Monitor& monitor) {
  const std::lock_guard lock(deferred_mutex_);
  for (std::size_t i = 0; i < deferred_.size();) {
    LayerRequest& request = *deferred_[i];
    int done = 0;
    PMPI_Test(&request.request, &done, MPI_STATUS_IGNORE);
    if (!done) {
      ++i;
      continue;
    }
    // The program went on meanwhile: only a wait it should have had is added, never a
    // wait removed retroactively.
    const std::uint64_t vt =
        request.settle ? settle(monitor, request, request.call, request.end_rt) : 0;
    if (vt > request.vt_then) {
      vclock::VirtualClock& clock = monitor.clock();
      clock.continue_from(clock.virtual_ns() + (vt - request.vt_then));
    }
    release(request);
    deferred_[i] = deferred_.back();
    deferred_.pop_back();
    deferred_count_.fetch_sub(1, std::memory_order_relaxed);
  }
}

void LayerRequests::finish_all(Monitor& monitor) {
  // Replies still on their way arrive before their senders' partners finalize (a receive
  // completes, and so answers, before MPI_Finalize); a grace period keeps a request freed
  // while active (whose completion nobody sees, so nobody answers) from holding up the end.
  constexpr std::uint64_t kGraceNs = 1'000'000'000;
  const std::uint64_t start = monitor.clock().real_ns();
  while (deferred_count_.load(std::memory_order_relaxed) != 0 &&
         monitor.clock().real_ns() - start < kGraceNs) {
    poll_deferred(monitor);
    sched_yield();
  }
  const std::lock_guard lock(deferred_mutex_);
  for (LayerRequest* request : deferred_) {
    if (request->purpose == LayerRequest::Purpose::SyncReply) {
      PMPI_Cancel(&request->request);
    }
    PMPI_Wait(&request->request, MPI_STATUS_IGNORE);
    release(*request);
  }
  deferred_.clear();
  deferred_count_.store(0, std::memory_order_relaxed);
}

} // namespace vcmon::runtime::mpi
