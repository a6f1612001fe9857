#include "mpi/requests/DeferredReceives.hpp"

#include "mpi/layer/CallerCounters.hpp"
#include "mpi/layer/ProgramErrorHandlers.hpp"
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

struct __attribute__((visibility("hidden"))) DeferredReceive {
  enum class State { Undecided, Posted, Done };
  State state = State::Undecided;
  MpiFunction function = MpiFunction::Irecv;
  tables::SiteId site = tables::kNoSite;
  const Shadow* shadow = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  void* buffer = nullptr;
  MPI_Count count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL; // until posted, a duplicate of a derived one
  bool owns_datatype = false;                // `datatype` is that duplicate
  int tag = 0;
  vclock::Moment post;
  StatementContext context;                // the Irecv statement's calling context
  MPI_Request grequest = MPI_REQUEST_NULL; // the program's
  MPI_Request real = MPI_REQUEST_NULL;     // posted to MPI
  MPI_Request send = MPI_REQUEST_NULL;     // an Isendrecv's send, until it completes
  std::vector<char> send_copy;             // an Isendrecv_replace's packed data, until then
  bool decided = false;                    // posted from a chosen source (else undecided)
  PostedStamp stamp;                       // decided: the chosen message's stamp
  std::optional<WildcardReceive> wildcard; // undecided: the decision under way
  MPI_Status status{};                     // Done: the real receive's
  int error = MPI_SUCCESS;
  bool freed_by_program = false;         // MPI_Request_free: it completes unseen
  std::atomic<bool> freed_by_mpi{false}; // its generalized request is gone
  bool reported = false;                 // a completion call reported it, or it completed unseen
};

namespace {

// Progress does not nest (its MPI calls may come back through the layer's scopes). Per thread,
// not per instance: a thread runs in one process's layer, and another thread of it must wait
// for the lock, not skip its progress.
thread_local bool progressing = false;
// Settling a receive polls for its stamp, and the poll settles the others (settle_matched): not
// this one again.
thread_local bool settling = false;

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

// Whether `datatype` is one the program can free (a derived one).
bool derived(MPI_Datatype datatype) {
  int integers = 0, addresses = 0, datatypes = 0, combiner = MPI_COMBINER_NAMED;
  PMPI_Type_get_envelope(datatype, &integers, &addresses, &datatypes, &combiner);
  return combiner != MPI_COMBINER_NAMED;
}

// `derived_type`: whether the message's datatype is derived().
std::unique_ptr<DeferredReceive> described(MpiFunction function, const ReceivePost& posted,
                                           void* buffer, const MessageArguments<MPI_Count>& message,
                                           bool derived_type) {
  auto receive = std::make_unique<DeferredReceive>();
  receive->function = function;
  receive->site = posted.site;
  receive->shadow = &posted.shadow;
  receive->comm = message.comm;
  receive->buffer = buffer;
  receive->count = message.count;
  // The program may free a derived datatype once MPI_Irecv returned (MPI keeps what a pending
  // receive uses), and make another under the same handle: posted later with the handle, the
  // receive crashed in MPI or unpacked by the new type. It keeps a duplicate until posted.
  receive->datatype = message.datatype;
  MPI_Datatype kept = MPI_DATATYPE_NULL;
  if (derived_type && PMPI_Type_dup(message.datatype, &kept) == MPI_SUCCESS) {
    receive->datatype = kept;
    receive->owns_datatype = true;
  }
  receive->tag = message.tag;
  receive->post = posted.post;
  receive->context = posted.context;
  return receive;
}

// Posted (MPI holds the datatype now) or cancelled before: its duplicate goes.
void release_datatype(DeferredReceive& receive) {
  if (receive.owns_datatype) {
    receive.owns_datatype = false;
    PMPI_Type_free(&receive.datatype);
  }
}

// Its decision starts: the earliest virtual arrival, once safe (WildcardReceive).
void await_decision(Monitor& monitor, ControlChannel& control, WildcardTrace& trace,
                    DeferredReceive& receive) {
  receive.wildcard.emplace(monitor, control, trace, *receive.shadow, receive.tag,
                           WaitPlace{index_of(receive.function), receive.site}, receive.post.vt);
}

// Whether the real receive and an Isendrecv's send have completed; tests whichever has not. The
// error they complete with reaches the program when it completes its own request.
bool both_complete(DeferredReceive& receive) {
  const ProgramErrorHandlers::Look look;
  if (receive.real != MPI_REQUEST_NULL) {
    int done = 0;
    receive.error = PMPI_Test(&receive.real, &done, &receive.status);
    if (!done) {
      return false;
    }
  }
  if (receive.send != MPI_REQUEST_NULL) {
    int done = 0;
    const int error = PMPI_Test(&receive.send, &done, MPI_STATUS_IGNORE);
    if (error != MPI_SUCCESS && receive.error == MPI_SUCCESS) {
      receive.error = error;
    }
    return done != 0 || error != MPI_SUCCESS;
  }
  return true;
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
  receive.error = PMPI_Irecv_c(receive.buffer, receive.count, receive.datatype, chosen.source,
                               receive.tag, receive.comm, &receive.real);
  release_datatype(receive);
}

// The stamp of a completed receive, taken: the chosen one, or (posted undecided) the one it
// settled with; nullopt when no message was consumed.
std::optional<vclock::MessageStamp> take_stamp(StampProtocol& stamps, DeferredReceive& receive) {
  const Shadow& shadow = *receive.shadow;
  if (!Receipt::consumed_request(receive.error, receive.status)) {
    stamps.abandon(shadow, receive.stamp);
    return std::nullopt;
  }
  return stamps.finish(shadow, receive.stamp, receive.status.MPI_TAG);
}

// A receive the program freed completed: counted, with no time (nobody waited for it).
void report_unseen(Monitor& monitor, StampProtocol& stamps, DeferredReceive& receive) {
  receive.reported = true;
  if (const std::optional<vclock::MessageStamp> stamp = take_stamp(stamps, receive)) {
    Receipt::unseen(monitor, stamps,
                    {receive.site, *receive.shadow, receive.post, 0, receive.context},
                    receive.error, receive.status, &*stamp);
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

DeferredReceives::DeferredReceives(StampProtocol& stamps) : stamps_(stamps) {}

DeferredReceives::~DeferredReceives() {
  int finalized = 1;
  PMPI_Finalized(&finalized);
  if (checking_ != MPI_COMM_NULL && finalized == 0) {
    PMPI_Comm_free(&checking_);
  }
  for (std::unique_ptr<DeferredReceive>& receive : receives_) {
    if (!receive->freed_by_mpi.load(std::memory_order_acquire)) {
      static_cast<void>(receive.release());
    }
  }
}

void DeferredReceives::drop_finished() {
  const auto dropped = std::erase_if(receives_, [&](const std::unique_ptr<DeferredReceive>& r) {
    if (!r->reported || !r->freed_by_mpi.load(std::memory_order_acquire)) {
      return false;
    }
    if (const auto entry = by_request_.find(r->grequest);
        entry != by_request_.end() && entry->second == r.get()) {
      by_request_.erase(entry);
    }
    return true;
  });
  held_.fetch_sub(static_cast<unsigned>(dropped), std::memory_order_relaxed);
}

bool DeferredReceives::accepted_by_mpi(void* buffer, const MessageArguments<MPI_Count>& message,
                                       bool derived_type) {
  if ((buffer != nullptr || message.count == 0) && !derived_type) {
    return true; // a predefined datatype is committed; what else MPI checks, the caller did
  }
  if (checking_ == MPI_COMM_NULL) {
    if (PMPI_Comm_dup(MPI_COMM_SELF, &checking_) != MPI_SUCCESS) {
      checking_ = MPI_COMM_NULL;
      return false;
    }
    PMPI_Comm_set_errhandler(checking_, MPI_ERRORS_RETURN);
  }
  MPI_Request request = MPI_REQUEST_NULL;
  if (PMPI_Irecv_c(buffer, message.count, message.datatype, MPI_ANY_SOURCE, message.tag, checking_,
                   &request) != MPI_SUCCESS) {
    return false;
  }
  PMPI_Cancel(&request);
  PMPI_Wait(&request, MPI_STATUS_IGNORE);
  return true;
}

bool DeferredReceives::must_post_undecided(const Shadow& shadow) {
  if (shadow.inter || shadow.posted_wildcards.load(std::memory_order_relaxed) != 0) {
    return true;
  }
  std::size_t undecided = 0;
  for (const auto& receive : receives_) {
    if (receive->shadow != &shadow) {
      continue;
    }
    if (receive->state == DeferredReceive::State::Posted && !receive->decided) {
      return true;
    }
    undecided += receive->state == DeferredReceive::State::Undecided ? 1 : 0;
  }
  if (undecided < kMaxUndecided) {
    return false;
  }
  post_undecided_on(shadow);
  return true;
}

void DeferredReceives::post_undecided(DeferredReceive& receive) {
  receive.wildcard.reset();
  receive.state = DeferredReceive::State::Posted;
  stamps_.hold_back(*receive.shadow, receive.tag, receive.stamp);
  receive.error = PMPI_Irecv_c(receive.buffer, receive.count, receive.datatype, MPI_ANY_SOURCE,
                               receive.tag, receive.comm, &receive.real);
  release_datatype(receive);
}

bool DeferredReceives::settled(DeferredReceive& receive) {
  if (receive.stamp.state != PostedStamp::State::Wildcard) {
    return true;
  }
  if (settling) {
    return false;
  }
  const std::optional<int> source = Receipt::consumed_request(receive.error, receive.status)
                                        ? std::optional<int>(receive.status.MPI_SOURCE)
                                        : std::nullopt;
  settling = true;
  const bool done = stamps_.settle(*receive.shadow, receive.stamp, source, receive.status.MPI_TAG);
  settling = false;
  return done;
}

void DeferredReceives::settle_matched() {
  if (settling || !any()) {
    return;
  }
  const CallerLock guard(lock_);
  for (const auto& receive : receives_) {
    if (receive->state == DeferredReceive::State::Posted &&
        receive->stamp.state == PostedStamp::State::Wildcard && both_complete(*receive)) {
      settled(*receive);
    }
  }
}

void DeferredReceives::post_undecided_on(const Shadow& shadow) {
  for (const auto& receive : receives_) {
    if (receive->shadow == &shadow && receive->state == DeferredReceive::State::Undecided) {
      post_undecided(*receive);
    }
  }
}

bool DeferredReceives::started(std::unique_ptr<DeferredReceive>& receive, MPI_Request* request) {
  if (PMPI_Grequest_start(&query, &forget, &cancel_nothing, receive.get(), request) !=
      MPI_SUCCESS) {
    return false;
  }
  receive->grequest = *request;
  by_request_.insert_or_assign(*request, receive.get());
  receives_.push_back(std::move(receive));
  return true;
}

// A reported receive is skipped: MPI freed its request as the completion call reported it, and
// may already have given the same handle to another request (a persistent collective started
// right after a wildcard receive completed was taken for that receive, and its wait waited for
// a stamp forever).
DeferredReceive* DeferredReceives::find(MPI_Request grequest) const {
  if (grequest == MPI_REQUEST_NULL) {
    return nullptr;
  }
  const auto entry = by_request_.find(grequest);
  return entry != by_request_.end() && !entry->second->reported ? entry->second : nullptr;
}

bool DeferredReceives::defer(Monitor& monitor, ControlChannel& control, WildcardTrace& trace,
                             MpiFunction function, const ReceivePost& posted, void* buffer,
                             const MessageArguments<MPI_Count>& message, MPI_Request* request) {
  const Shadow& shadow = posted.shadow;
  const CallerLock guard(lock_);
  drop_finished();
  const bool derived_type = derived(message.datatype);
  if (must_post_undecided(shadow) || !accepted_by_mpi(buffer, message, derived_type)) {
    return false;
  }
  std::unique_ptr<DeferredReceive> receive =
      described(function, posted, buffer, message, derived_type);
  await_decision(monitor, control, trace, *receive);
  if (!started(receive, request)) {
    return false;
  }
  active_.fetch_add(1, std::memory_order_relaxed);
  held_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

int DeferredReceives::pair(Monitor& monitor, ControlChannel& control, WildcardTrace& trace,
                           MpiFunction function, const ReceivePost& posted, void* buffer,
                           const MessageArguments<MPI_Count>& message, MPI_Request send,
                           std::vector<char> send_copy, MPI_Request* request) {
  StampProtocol& stamps = control.stamps();
  const Shadow& shadow = posted.shadow;
  const CallerLock guard(lock_);
  drop_finished();
  std::unique_ptr<DeferredReceive> receive =
      described(function, posted, buffer, message, derived(message.datatype));
  receive->send = send;
  receive->send_copy = std::move(send_copy);
  if (message.peer != MPI_ANY_SOURCE) {
    // Its source's first message with this tag: the claim takes that stamp, as a receive
    // posted from a named source does.
    receive->decided = true;
    receive->state = DeferredReceive::State::Posted;
    stamps.claim(shadow, message.peer, message.tag, receive->stamp);
    receive->error = PMPI_Irecv_c(buffer, message.count, message.datatype, message.peer,
                                  message.tag, message.comm, &receive->real);
    release_datatype(*receive);
    // The arguments were checked, so this is MPI failing: the request completes with the
    // error once the send has, which must not be left behind with its data.
  } else if (must_post_undecided(shadow)) {
    post_undecided(*receive);
  } else {
    await_decision(monitor, control, trace, *receive);
  }
  if (!started(receive, request)) {
    // No request to complete them by: the posted ones end here.
    if (receive->real != MPI_REQUEST_NULL) {
      PMPI_Cancel(&receive->real);
      PMPI_Wait(&receive->real, MPI_STATUS_IGNORE);
    }
    stamps.abandon(shadow, receive->stamp);
    PMPI_Wait(&receive->send, MPI_STATUS_IGNORE);
    return MPI_ERR_INTERN;
  }
  active_.fetch_add(1, std::memory_order_relaxed);
  held_.fetch_add(1, std::memory_order_relaxed);
  return MPI_SUCCESS;
}

void DeferredReceives::progress(Monitor& monitor, StampProtocol& stamps,
                                std::optional<std::uint64_t> horizon, bool may_ask) {
  if (!any() || progressing) {
    return;
  }
  progressing = true;
  const CallerLock guard(lock_);
  // Undecided receives that wait. MPI matches in posting order, so a message one of them may
  // match is not for a later receive: a later one whose tag such a receive may match waits
  // behind it without an attempt, and one with MPI_ANY_TAG takes its earliest message only
  // when no receive before it may match that message's tag. Its decision is safe up to that
  // message for every tag, so nothing a receive before it could take arrives earlier.
  // Holding it back instead, while its state replies told deciders elsewhere that the message
  // would end its wait, made 4 ranks wait for each other for good (one receive with tag 2
  // then one with MPI_ANY_TAG, a tag-3 message there; and the same with tags 2 and 3).
  static thread_local std::vector<const DeferredReceive*> held;
  held.clear();
  const auto behind = [&](const DeferredReceive& receive, int tag) {
    return std::any_of(held.begin(), held.end(), [&](const DeferredReceive* waiting) {
      return waiting->shadow == receive.shadow && tag_matches(waiting->tag, tag);
    });
  };
  for (std::size_t i = 0; i < receives_.size(); ++i) {
    DeferredReceive& receive = *receives_[i];
    if (receive.state == DeferredReceive::State::Undecided) {
      std::optional<PendingStamp> chosen;
      if (!behind(receive, receive.tag)) {
        chosen = receive.wildcard->attempt(horizon, may_ask);
      }
      if (chosen && !behind(receive, chosen->tag)) {
        post_decided(stamps, receive, *chosen);
      } else {
        held.push_back(&receive);
      }
    }
    if (receive.state == DeferredReceive::State::Posted && both_complete(receive) &&
        settled(receive)) {
      finish(monitor, stamps, receive);
      active_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  drop_finished();
  progressing = false;
}

void DeferredReceives::before_matching(const Shadow& shadow) {
  if (!any()) {
    return;
  }
  const CallerLock guard(lock_);
  post_undecided_on(shadow);
}

void DeferredReceives::post_all_undecided() {
  const CallerLock guard(lock_);
  for (const auto& receive : receives_) {
    if (receive->state == DeferredReceive::State::Undecided) {
      post_undecided(*receive);
    }
  }
}

const Shadow* DeferredReceives::shadow_of(MPI_Request request) {
  if (!exist()) {
    return nullptr;
  }
  const CallerLock guard(lock_);
  const DeferredReceive* receive = find(request);
  return receive != nullptr ? receive->shadow : nullptr;
}

std::optional<std::uint64_t> DeferredReceives::present_arrival(StampProtocol& stamps,
                                                               MPI_Request request) {
  if (!exist()) {
    return std::nullopt;
  }
  const CallerLock guard(lock_);
  const DeferredReceive* receive = find(request);
  if (receive == nullptr) {
    return std::nullopt;
  }
  if (receive->decided || receive->state == DeferredReceive::State::Done) {
    return receive->post.vt; // its message is here or on its way: nobody else must act
  }
  const StampProtocol::Hold hold(stamps);
  // Posted undecided, the stamps it may take wait held back for it.
  const StampInbox& candidates = receive->state == DeferredReceive::State::Posted
                                     ? receive->shadow->held_back
                                     : receive->shadow->inbox;
  return candidates.earliest_candidate(receive->tag);
}

bool DeferredReceives::refers_to(const Shadow& shadow) {
  const CallerLock guard(lock_);
  return std::any_of(receives_.begin(), receives_.end(),
                     [&](const auto& r) { return r->shadow == &shadow; });
}

DeferredReceive* DeferredReceives::receive_of(MPI_Request request) {
  if (!exist()) {
    return nullptr;
  }
  const CallerLock guard(lock_);
  return find(request);
}

void DeferredReceives::completed(Monitor& monitor, StampProtocol& stamps, DeferredReceive& receive,
                                 const vclock::Moment& call, std::uint64_t end_rt,
                                 ClockUpdate& update) {
  const CallerLock guard(lock_);
  receive.reported = true;
  if (const std::optional<vclock::MessageStamp> stamp = take_stamp(stamps, receive)) {
    Receipt::taken(monitor, stamps,
                   {receive.site, *receive.shadow, receive.post, 0, receive.context},
                   {call, end_rt, receive.error, receive.status}, update, &*stamp);
  }
}

void DeferredReceives::report_status(const DeferredReceive& receive, MPI_Status& status,
                                     bool error_in_status) {
  const int error = error_in_status ? receive.error : status.MPI_ERROR;
  status = receive.status;
  status.MPI_ERROR = error;
}

bool DeferredReceives::matched_by(StampProtocol& stamps, const DeferredReceive& receive,
                                  std::uint64_t now_vt) {
  std::size_t before = 0;
  for (const auto& other : receives_) {
    if (other.get() == &receive) {
      break;
    }
    // An earlier one that may take a message this one may take (either with MPI_ANY_TAG).
    before += other->state == DeferredReceive::State::Undecided &&
                      other->shadow == receive.shadow && tags_overlap(other->tag, receive.tag)
                  ? 1
                  : 0;
  }
  const StampProtocol::Hold hold(stamps);
  stamps.drain();
  return receive.shadow->inbox.sent_more_by(receive.tag, now_vt, before);
}

void DeferredReceives::cancel(StampProtocol& stamps, MPI_Request request, std::uint64_t now_vt) {
  const CallerLock guard(lock_);
  DeferredReceive* receive = find(request);
  if (receive == nullptr) {
    return;
  }
  if (receive->state == DeferredReceive::State::Undecided && matched_by(stamps, *receive, now_vt)) {
    // Unmonitored, MPI matched it as its message came: the cancel fails, the decision goes on.
    return;
  }
  if (receive->state == DeferredReceive::State::Undecided) {
    // Nothing posted: it is cancelled at once, as MPI cancels a receive not yet matched.
    receive->wildcard.reset();
    release_datatype(*receive);
    receive->state = DeferredReceive::State::Done;
    receive->status = MPI_Status{};
    receive->status.MPI_SOURCE = MPI_ANY_SOURCE;
    receive->status.MPI_TAG = MPI_ANY_TAG;
    PMPI_Status_set_elements_x(&receive->status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(&receive->status, 1);
    active_.fetch_sub(1, std::memory_order_relaxed);
    PMPI_Grequest_complete(receive->grequest);
  } else if (receive->state == DeferredReceive::State::Posted &&
             receive->real != MPI_REQUEST_NULL) {
    PMPI_Cancel(&receive->real);
  }
}

void DeferredReceives::free(Monitor& monitor, StampProtocol& stamps, MPI_Request request) {
  const CallerLock guard(lock_);
  if (DeferredReceive* receive = find(request)) {
    receive->freed_by_program = true;
    if (receive->state == DeferredReceive::State::Done && !receive->reported) {
      report_unseen(monitor, stamps, *receive); // complete already: MPI frees it at once
    }
  }
}

} // namespace vcmon::runtime::mpi
