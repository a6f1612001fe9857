#include "mpi/requests/DeferredReceives.hpp"

#include "mpi/layer/CallerCounters.hpp"
#include "mpi/requests/LayerWork.hpp"
#include "mpi/requests/Receipt.hpp"
#include "mpi/stamps/PostedStamp.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "mpi/wildcard/WildcardReceive.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

namespace vcmon::runtime::mpi {
namespace {

struct DeferredReceive {
  enum class State { Undecided, Posted, Done };
  State state = State::Undecided;
  MpiFunction function = MpiFunction::Irecv;
  tables::SiteId site = tables::kNoSite;
  const Shadow* shadow = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  void* buffer = nullptr;
  MPI_Count count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  int tag = 0;
  Moment post;
  MPI_Request grequest = MPI_REQUEST_NULL; // the program's
  MPI_Request real = MPI_REQUEST_NULL;     // posted to MPI
  bool decided = false;                    // posted from a chosen source (else undecided)
  PostedStamp stamp;                       // decided: the chosen message's stamp
  std::optional<WildcardReceive> wildcard; // undecided: the decision under way
  MPI_Status status{};                     // Done: the real receive's
  int error = MPI_SUCCESS;
  bool freed_by_program = false;         // MPI_Request_free: it completes unseen
  std::atomic<bool> freed_by_mpi{false}; // its generalized request is gone
  bool reported = false;                 // a completion call reported it, or it completed unseen
};

// In the order they were posted: a communicator's first undecided receive is decided first, as
// MPI gives its first message to the receive posted first.
std::vector<std::unique_ptr<DeferredReceive>> receives;
// Serialises this file's state with MPI_THREAD_MULTIPLE (CallerLock).
std::atomic_flag lock = ATOMIC_FLAG_INIT;
// Progress does not nest (its MPI calls may come back through the layer's scopes).
thread_local bool progressing = false;

// Receives nobody needs any more: reported (or unseen) and their generalized request freed.
// Dropped only here, under the lock, so that a free callback inside MPI never changes the list
// while a loop walks it.
void drop_finished(std::atomic<unsigned>& held) {
  held.fetch_sub(static_cast<unsigned>(std::erase_if(receives,
                                                     [](const auto& r) {
                                                       return r->reported &&
                                                              r->freed_by_mpi.load(
                                                                  std::memory_order_acquire);
                                                     })),
                 std::memory_order_relaxed);
}

int query(void* extra, MPI_Status* status) {
  const auto& receive = *static_cast<const DeferredReceive*>(extra);
  *status = receive.status;
  return receive.error;
}

int cancel_nothing(void*, int) {
  return MPI_SUCCESS;
} // DeferredReceives::cancel did it

int forget(void* extra) {
  static_cast<DeferredReceive*>(extra)->freed_by_mpi.store(true, std::memory_order_release);
  return MPI_SUCCESS;
}

DeferredReceive* find(MPI_Request grequest) {
  for (const auto& receive : receives) {
    if (receive->grequest == grequest && grequest != MPI_REQUEST_NULL) {
      return receive.get();
    }
  }
  return nullptr;
}

// Posts `receive` undecided, from MPI_ANY_SOURCE: it takes its message in MPI's order.
void post_undecided(DeferredReceive& receive) {
  receive.wildcard.reset();
  receive.state = DeferredReceive::State::Posted;
  PMPI_Irecv_c(receive.buffer, receive.count, receive.datatype, MPI_ANY_SOURCE, receive.tag,
               receive.comm, &receive.real);
}

// Decided: the message whose stamp is `chosen`.
void post_decided(StampProtocol& stamps, DeferredReceive& receive, const PendingStamp& chosen) {
  const Shadow& shadow = *receive.shadow;
  receive.wildcard->taken(index_of(receive.function), chosen);
  receive.wildcard.reset();
  receive.decided = true;
  receive.state = DeferredReceive::State::Posted;
  // The chosen stamp is the first of its source with this tag: the claim takes it, and MPI
  // gives the receive that source's first such message.
  stamps.claim(shadow, chosen.source, receive.tag, receive.stamp);
  PMPI_Irecv_c(receive.buffer, receive.count, receive.datatype, chosen.source, receive.tag,
               receive.comm, &receive.real);
}

// The stamp of a completed receive, taken: the chosen one, or (posted undecided) the next from
// the actual source with the actual tag; nullopt when no message was consumed.
std::optional<vclock::MessageStamp> take_stamp(StampProtocol& stamps, DeferredReceive& receive) {
  const Shadow& shadow = *receive.shadow;
  if (!Receipt::consumed_request(receive.error, receive.status)) {
    stamps.abandon(shadow, receive.stamp);
    return std::nullopt;
  }
  if (receive.decided) {
    return stamps.finish(shadow, receive.stamp);
  }
  return stamps.take(shadow, receive.status.MPI_SOURCE, receive.status.MPI_TAG);
}

// A receive the program freed completed: counted, with no time (nobody waited for it).
void report_unseen(Monitor& monitor, StampProtocol& stamps, DeferredReceive& receive) {
  receive.reported = true;
  if (const std::optional<vclock::MessageStamp> stamp = take_stamp(stamps, receive)) {
    Receipt::unseen(monitor, stamps, {receive.site, *receive.shadow, receive.post}, receive.error,
                    receive.status, &*stamp);
  }
}

// A posted receive completed: its generalized request completes with its status.
void finish(Monitor& monitor, StampProtocol& stamps, DeferredReceive& receive) {
  receive.state = DeferredReceive::State::Done;
  if (receive.freed_by_program) {
    report_unseen(monitor, stamps, receive);
  }
  PMPI_Grequest_complete(receive.grequest);
}

} // namespace

bool DeferredReceives::defer(Monitor& monitor, StampProtocol& stamps, MpiFunction function,
                             const ReceivePost& posted, void* buffer,
                             const MessageArguments<MPI_Count>& message, MPI_Request* request) {
  const Shadow& shadow = posted.shadow;
  const CallerLock guard(lock);
  drop_finished(held_);
  // Behind a receive posted undecided, MPI's order decides anyway.
  const bool behind_undecided = std::any_of(receives.begin(), receives.end(), [&](const auto& r) {
    return r->shadow == &shadow && r->state == DeferredReceive::State::Posted && !r->decided;
  });
  if (shadow.inter || behind_undecided) {
    return false;
  }
  auto receive = std::make_unique<DeferredReceive>();
  receive->function = function;
  receive->site = posted.site;
  receive->shadow = &shadow;
  receive->comm = message.comm;
  receive->buffer = buffer;
  receive->count = message.count;
  receive->datatype = message.datatype;
  receive->tag = message.tag;
  receive->post = posted.post;
  receive->wildcard.emplace(monitor, stamps, shadow, message.tag,
                            WaitPlace{index_of(function), posted.site}, posted.post.vt);
  if (PMPI_Grequest_start(&query, &forget, &cancel_nothing, receive.get(), request) !=
      MPI_SUCCESS) {
    return false;
  }
  receive->grequest = *request;
  receives.push_back(std::move(receive));
  active_.fetch_add(1, std::memory_order_relaxed);
  held_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void DeferredReceives::progress(Monitor& monitor, StampProtocol& stamps,
                                std::optional<std::uint64_t> horizon, bool may_ask) {
  if (!any() || progressing) {
    return;
  }
  progressing = true;
  const CallerLock guard(lock);
  std::vector<const Shadow*> held; // communicators whose first undecided receive waits
  for (std::size_t i = 0; i < receives.size(); ++i) {
    DeferredReceive& receive = *receives[i];
    if (receive.state == DeferredReceive::State::Undecided &&
        std::find(held.begin(), held.end(), receive.shadow) == held.end()) {
      const std::optional<PendingStamp> chosen = receive.wildcard->attempt(horizon, may_ask);
      if (chosen) {
        post_decided(stamps, receive, *chosen);
      } else {
        held.push_back(receive.shadow);
      }
    }
    if (receive.state == DeferredReceive::State::Posted) {
      int done = 0;
      receive.error = PMPI_Test(&receive.real, &done, &receive.status);
      if (done) {
        finish(monitor, stamps, receive);
        active_.fetch_sub(1, std::memory_order_relaxed);
      }
    }
  }
  drop_finished(held_);
  progressing = false;
}

void DeferredReceives::before_matching(const Shadow& shadow) {
  if (!any()) {
    return;
  }
  const CallerLock guard(lock);
  for (const auto& receive : receives) {
    if (receive->shadow == &shadow && receive->state == DeferredReceive::State::Undecided) {
      post_undecided(*receive);
    }
  }
}

void DeferredReceives::post_all_undecided() {
  const CallerLock guard(lock);
  for (const auto& receive : receives) {
    if (receive->state == DeferredReceive::State::Undecided) {
      post_undecided(*receive);
    }
  }
}

const Shadow* DeferredReceives::shadow_of(MPI_Request request) {
  if (!exist()) {
    return nullptr;
  }
  const CallerLock guard(lock);
  const DeferredReceive* receive = find(request);
  return receive != nullptr ? receive->shadow : nullptr;
}

std::optional<std::uint64_t> DeferredReceives::present_arrival(StampProtocol& stamps,
                                                               MPI_Request request) {
  if (!exist()) {
    return std::nullopt;
  }
  const CallerLock guard(lock);
  const DeferredReceive* receive = find(request);
  if (receive == nullptr) {
    return std::nullopt;
  }
  if (receive->decided || receive->state == DeferredReceive::State::Done) {
    return receive->post.vt; // its message is here or on its way: nobody else must act
  }
  const StampProtocol::Hold hold(stamps);
  return receive->shadow->inbox.earliest_candidate(receive->tag);
}

bool DeferredReceives::refers_to(const Shadow& shadow) {
  const CallerLock guard(lock);
  return std::any_of(receives.begin(), receives.end(),
                     [&](const auto& r) { return r->shadow == &shadow; });
}

bool DeferredReceives::completed(Monitor& monitor, StampProtocol& stamps, MPI_Request request,
                                 const Moment& call, std::uint64_t end_rt, ClockUpdate& update) {
  if (!exist()) {
    return false;
  }
  const CallerLock guard(lock);
  DeferredReceive* receive = find(request);
  if (receive == nullptr) {
    return false;
  }
  receive->reported = true;
  if (const std::optional<vclock::MessageStamp> stamp = take_stamp(stamps, *receive)) {
    Receipt::taken(monitor, stamps, {receive->site, *receive->shadow, receive->post},
                   {call, end_rt, receive->error, receive->status}, update, &*stamp);
  }
  return true;
}

void DeferredReceives::cancel(MPI_Request request) {
  const CallerLock guard(lock);
  DeferredReceive* receive = find(request);
  if (receive == nullptr) {
    return;
  }
  if (receive->state == DeferredReceive::State::Undecided) {
    // Nothing posted: it is cancelled at once, as MPI cancels a receive not yet matched.
    receive->wildcard.reset();
    receive->state = DeferredReceive::State::Done;
    receive->status = MPI_Status{};
    receive->status.MPI_SOURCE = MPI_ANY_SOURCE;
    receive->status.MPI_TAG = MPI_ANY_TAG;
    PMPI_Status_set_elements_x(&receive->status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(&receive->status, 1);
    active_.fetch_sub(1, std::memory_order_relaxed);
    PMPI_Grequest_complete(receive->grequest);
  } else if (receive->state == DeferredReceive::State::Posted) {
    PMPI_Cancel(&receive->real);
  }
}

void DeferredReceives::free(Monitor& monitor, StampProtocol& stamps, MPI_Request request) {
  const CallerLock guard(lock);
  if (DeferredReceive* receive = find(request)) {
    receive->freed_by_program = true;
    if (receive->state == DeferredReceive::State::Done && !receive->reported) {
      report_unseen(monitor, stamps, *receive); // complete already: MPI frees it at once
    }
  }
}

} // namespace vcmon::runtime::mpi
