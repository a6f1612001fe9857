// The shapes every point-to-point wrapper takes (blocking or not, send, receive or both), as
// templates over the count type (int, MPI_Count) and the PMPI call itself. The wrappers in
// PointToPointWrappers.cpp only bind arguments.
#pragma once

#include "core/MpiFunctionTable.hpp"
#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/control/WaitPolicy.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/layer/MessageArguments.hpp"
#include "mpi/layer/ProgramErrorHandlers.hpp"
#include "mpi/layer/UnpolledCall.hpp"
#include "mpi/requests/DeferredReceives.hpp"
#include "mpi/requests/LayerRequests.hpp"
#include "mpi/requests/LayerWork.hpp"
#include "mpi/requests/Receipt.hpp"
#include "mpi/requests/RequestTable.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "mpi/wildcard/WildcardReceive.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "mpi/wrappers/PolledRequest.hpp"
#include "mpi/wrappers/ProbedMessages.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <mpi.h>

#include <optional>
#include <vector>

namespace vcmon::runtime::mpi {

// How a send's stamp relates to its data. A buffered send can fail for lack of buffer space,
// which the layer cannot predict (MPICH's buffer layout is its own), so its stamp follows the
// data once the send succeeded; every other send's stamp goes first.
enum class SendMode { Standard, Synchronous, Buffered };

// A send whose stamp has left.
struct StampedSend {
  MpiFunction function = MpiFunction::Send;
  const Shadow* shadow = nullptr;
  tables::SiteId site = tables::kNoSite;
  int dest = MPI_PROC_NULL;
  std::uint64_t bytes = 0;
  vclock::Moment start;
  LayerRequest* reply = nullptr; // synchronous sends
};

class __attribute__((visibility("hidden"))) PointToPoint {
public:
  // The send to stamp, unless it goes nowhere (MPI_PROC_NULL), on an unmonitored
  // communicator, or with arguments PMPI will reject. No side effects.
  template <typename Count>
  static std::optional<StampedSend>
  addressed(Monitor& monitor, StampProtocol& stamps, MpiFunction function,
            const MessageArguments<Count>& message, const vclock::Moment& start) {
    const Shadow* shadow = stamps.shadows().find(message.comm);
    if (shadow == nullptr || message.peer == MPI_PROC_NULL) {
      return std::nullopt;
    }
    const std::optional<std::uint64_t> bytes = StampProtocol::checked_bytes(
        *shadow, message.count, message.datatype, message.peer, message.tag);
    if (!bytes) {
      return std::nullopt;
    }
    return StampedSend{function,     shadow, monitor.comm_site(index_of(function)),
                       message.peer, *bytes, start};
  }

  // Sends the stamp of `send` (a synchronous one first posts the receive of its reply, from
  // `pending`'s layer requests).
  static void post_stamp(Monitor& monitor, PendingWork& pending, StampedSend& send, int tag,
                         SendMode mode) {
    const bool synchronous = mode == SendMode::Synchronous;
    if (synchronous) {
      send.reply = &pending.layer_requests.post_sync_reply(*send.shadow, send.dest, tag, send.site,
                                                           send.bytes);
    }
    pending.stamps.send_stamp(
        monitor.clock(), *send.shadow, send.dest, tag,
        {send.start.vt, send.start.rt, send.bytes, synchronous ? kSynchronous : 0});
  }

  template <typename Count>
  static std::optional<StampedSend>
  stamp(Monitor& monitor, PendingWork& pending, MpiFunction function,
        const MessageArguments<Count>& message, SendMode mode, const vclock::Moment& start) {
    std::optional<StampedSend> send = addressed(monitor, pending.stamps, function, message, start);
    if (send) {
      post_stamp(monitor, pending, *send, message.tag, mode);
    }
    return send;
  }

  // After the send's PMPI call returned `rc`; `completed_at`: when a blocking call returned,
  // nullptr for a nonblocking one.
  static void sent(Monitor& monitor, const StampedSend& send, int rc,
                   const vclock::Moment* completed_at, ClockUpdate& update) {
    if (send.reply != nullptr) {
      if (rc == MPI_SUCCESS && completed_at != nullptr) {
        LayerRequests::user_completed(monitor, *send.reply, send.start, update);
      } else if (rc != MPI_SUCCESS) {
        LayerRequests::withdraw(*send.reply);
      }
      return;
    }
    const std::uint64_t duration =
        completed_at != nullptr ? vclock::elapsed(send.start.vt, completed_at->vt) : 0;
    monitor.record_com(send.site, send.shadow->world_rank_of(send.dest), duration, 0, send.bytes);
    if (completed_at != nullptr) {
      // The record ends there; the layer's work after it charges a constant beyond what it
      // measures, and a loop of small sends otherwise had them add up to more than the loop.
      monitor.clock().hold(completed_at->vt);
    }
  }

  // Sends that may wait for their receiver (synchronous ones, and any beyond MPICH's eager
  // sizes) run as their nonblocking twin plus a polled wait, so that the sender answers the
  // control channel while it waits.
  static constexpr std::uint64_t kEagerBytes = 16 * 1024;
  // Up to this size MPICH sends eagerly whatever the transport: such a send never waits for
  // its receiver, so it needs no UnpolledCall mark (the mark's stores cost 12% of a 1 KiB
  // ping-pong; bench/runtime/pingpong_compare.sh, 1.28x against 1.13x).
  static constexpr std::uint64_t kAlwaysEagerBytes = 2 * 1024;
  // A send's stamp goes ahead of its data, so that a receiver sees it as early as possible
  // (a stamp after the data made an 8-byte ping-pong 8% slower). A buffered send cannot know
  // before PMPI whether it fits: its stamp follows once the send succeeded.
  static bool stamp_first(SendMode mode) { return mode != SendMode::Buffered; }

  // Blocking sends: `pmpi()`, and `ipmpi(MPI_Request*)` its nonblocking twin.
  template <typename Count, typename Call, typename NonblockingCall>
  static int send(MpiFunction function, SendMode mode, const MessageArguments<Count>& message,
                  Call&& pmpi, NonblockingCall&& ipmpi) {
    Monitor* monitor = Layer::monitor();
    if (monitor == nullptr) {
      return pmpi();
    }
    LayerContext& context = LayerContext::process();
    PendingWork& pending = context.pending;
    SendEntry entry = enter_send(*monitor, context, function, mode, message);
    std::optional<StampedSend>& send = entry.send;
    // While receives are deferred, a send that may wait for its receiver must let them be
    // decided meanwhile: the receiver may wait for one of them to match its own send.
    const bool may_wait = send && (mode == SendMode::Synchronous || send->bytes > kEagerBytes ||
                                   pending.deferred.any());
    const int rc = may_wait ? wait_for_send(*monitor, context, *send, ipmpi)
                   : send && send->bytes > kAlwaysEagerBytes
                       ? unpolled(entry.start, send->shadow->world_rank_of(send->dest), pmpi)
                   : !send && waits_unshadowed(context, mode, message)
                       ? run_polled(*monitor, context, ipmpi)
                       : pmpi();
    const std::uint64_t end_ns = monitor->clock().source().now_ns();
    const vclock::Moment end = vclock::Moment::at(monitor->clock(), end_ns);
    ClockUpdate update;
    LayerWork work(*monitor, pending, end_ns, update);
    if (stamp_after(*monitor, context, entry, message.tag, mode, rc)) {
      sent(*monitor, *send, rc, &end, update);
    }
    return rc;
  }

  // Whether a blocking send on a communicator the layer does not monitor may wait for its
  // receiver, and so runs as its nonblocking twin polled: the communicator is unshadowed
  // (UnshadowedCommunicators: across nodes nothing answers for a process blocked in MPI there),
  // the send is not buffered (MPI_Ibsend fails for lack of buffer space where MPI_Bsend
  // would report it), and MPI accepts its arguments, so an erroneous send still fails as itself.
  template <typename Count>
  static bool waits_unshadowed(LayerContext& context, SendMode mode,
                               const MessageArguments<Count>& message) {
    if (mode == SendMode::Buffered || !context.unshadowed.contains(message.comm)) {
      return false;
    }
    int peers = 0;
    PMPI_Comm_size(message.comm, &peers);
    const auto bytes = StampProtocol::checked_bytes(peers, message.count, message.datatype,
                                                    message.peer, message.tag);
    return bytes && (mode == SendMode::Synchronous || *bytes > kEagerBytes ||
                     context.pending.deferred.any());
  }

  // A blocking send the layer does not poll: it says so while it is in PMPI (UnpolledCall),
  // and to whom (world rank; -1: a send the layer does not stamp), whom it waits for if MPI
  // sends it by rendezvous after all.
  template <typename Call>
  static int unpolled(const vclock::Moment& entry, int receiver, Call&& pmpi) {
    const UnpolledCall inside(
        entry.rt, receiver >= 0 ? UnpolledWait::Receiver : UnpolledWait::Completes, receiver);
    return pmpi();
  }

  // A send's entry: its moment, and what the layer did before PMPI.
  struct SendEntry {
    vclock::Moment start;
    std::optional<StampedSend> send; // nullopt: not stamped (see addressed())
    bool stamped = false;            // the stamp went ahead of the data
  };

  template <typename Count>
  static SendEntry enter_send(Monitor& monitor, LayerContext& context, MpiFunction function,
                              SendMode mode, const MessageArguments<Count>& message) {
    PendingWork& pending = context.pending;
    const std::uint64_t start_ns = monitor.clock().source().now_ns();
    SendEntry entry{vclock::Moment::at(monitor.clock(), start_ns), std::nullopt};
    entry.send = addressed(monitor, pending.stamps, function, message, entry.start);
    entry.stamped = entry.send && stamp_first(mode);
    if (entry.stamped) {
      LayerWork work(monitor, pending, start_ns);
      context.control.serve_if_due(entry.start);
      post_stamp(monitor, pending, *entry.send, message.tag, mode);
    }
    return entry;
  }

  // In the layer's work after a send's PMPI call returned `rc`: the stamp, if it follows the
  // data, and only if the send succeeded (a failed one leaves no stamp). True when the send
  // has its stamp.
  static bool stamp_after(Monitor& monitor, LayerContext& context, SendEntry& entry, int tag,
                          SendMode mode, int rc) {
    if (entry.stamped) {
      return true;
    }
    context.control.serve_if_due(entry.start);
    if (!entry.send || rc != MPI_SUCCESS) {
      return false;
    }
    post_stamp(monitor, context.pending, *entry.send, tag, mode);
    return true;
  }

  template <typename NonblockingCall>
  static int wait_for_send(Monitor& monitor, LayerContext& context, const StampedSend& send,
                           NonblockingCall&& ipmpi) {
    MPI_Request request = MPI_REQUEST_NULL;
    const int rc = ipmpi(&request);
    if (rc != MPI_SUCCESS) {
      return rc;
    }
    const PeerWait wait(context.stamps, {index_of(send.function), send.site}, send.start.vt,
                        *send.shadow, send.dest, &request);
    return WaitPolicy::block(
        monitor, context.control, wait, [&] { return request_done(request); },
        [&] { return PMPI_Wait(&request, MPI_STATUS_IGNORE); });
  }

  template <typename Count, typename Call>
  static int isend(MpiFunction function, SendMode mode, const MessageArguments<Count>& message,
                   MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    if (monitor == nullptr) {
      return pmpi();
    }
    LayerContext& context = LayerContext::process();
    SendEntry entry = enter_send(*monitor, context, function, mode, message);
    const int rc = pmpi();
    const std::uint64_t end_ns = monitor->clock().source().now_ns();
    const vclock::Moment returned = vclock::Moment::at(monitor->clock(), end_ns);
    LayerWork work(*monitor, context.pending, end_ns);
    if (stamp_after(*monitor, context, entry, message.tag, mode, rc)) {
      track_send(*monitor, context.requests, *entry.send, rc, *request,
                 vclock::elapsed(entry.start.vt, returned.vt));
    }
    return rc;
  }

  // A nonblocking send posted, in `own_ns`: synchronous ones wait for their reply at
  // completion; the others hold their own time (the completion call holds the rest). Tracked
  // in `table`.
  static void track_send(Monitor& monitor, RequestTable& table, const StampedSend& send, int rc,
                         MPI_Request request, std::uint64_t own_ns) {
    TrackedRequest tracked;
    tracked.site = send.site;
    tracked.shadow = send.shadow;
    tracked.peer = send.dest;
    tracked.post = send.start;
    tracked.own_ns = own_ns;
    if (send.reply != nullptr && rc != MPI_SUCCESS) {
      LayerRequests::withdraw(*send.reply);
      return;
    }
    if (send.reply == nullptr) {
      monitor.record_com(send.site, send.shadow->world_rank_of(send.dest), own_ns, 0, send.bytes);
      if (rc == MPI_SUCCESS) {
        tracked.kind = TrackedRequest::Kind::Send;
        table.insert(request, tracked);
      }
      return;
    }
    tracked.kind = TrackedRequest::Kind::SyncSend;
    tracked.layer = send.reply;
    if (table.insert(request, tracked) == nullptr) {
      // Untracked, the send still went, and its receiver will answer: the reply's receive stays
      // posted, to complete unused. Cancelled, the replies waited in MPI's queue, and UCX printed
      // a warning line for each at MPI_Finalize, on the program's stdout (20 000 Issends in
      // flight: 3 616 lines).
      LayerRequests::forget(*send.reply);
    }
  }

  // Persistent sends: validated now, stamped at every MPI_Start.
  template <typename Count, typename Call>
  static int send_init(MpiFunction function, SendMode mode, const MessageArguments<Count>& message,
                       MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const int rc = pmpi();
    if (monitor == nullptr || rc != MPI_SUCCESS) {
      return rc;
    }
    LayerContext& context = LayerContext::process();
    LayerWork work(*monitor, context.pending);
    const Shadow* shadow = context.stamps.shadows().find(message.comm);
    if (shadow == nullptr || message.peer == MPI_PROC_NULL) {
      return rc;
    }
    if (const auto bytes = StampProtocol::checked_bytes(*shadow, message.count, message.datatype,
                                                        message.peer, message.tag)) {
      TrackedRequest tracked;
      tracked.kind = TrackedRequest::Kind::PersistentSend;
      tracked.synchronous = mode == SendMode::Synchronous;
      tracked.site = monitor->comm_site(index_of(function));
      tracked.shadow = shadow;
      tracked.peer = message.peer;
      tracked.tag = message.tag;
      tracked.bytes = *bytes;
      context.requests.insert(*request, tracked);
    }
    return rc;
  }

  // Whether a blocking receive or probe waits for its message's stamp in the layer (and can
  // answer the control channel meanwhile): not when PMPI will reject its arguments (the
  // error must come from PMPI).
  template <typename Count>
  static bool awaits_stamp(const Shadow& shadow, const MessageArguments<Count>& message) {
    return StampProtocol::receivable(shadow, message.count, message.datatype, message.peer,
                                     message.tag);
  }

  // Waits, polling, until the sender of the message a blocking receive (or probe) from
  // `source` with `tag` will match has sent it, and returns its stamp; a wildcard first
  // decides which message by virtual time. `take`: a receive takes the stamp, a probe leaves
  // it for the receive that follows.
  //
  // `transfer_from_rt`, if given, holds the real time the call was entered; it becomes the time
  // from which the message's transfer counts (docs/pmpi.md, "Virtual time": from the call's entry,
  // or the sender's send if later). A wildcard's transfer starts once the message is chosen
  // (waiting for safety is not transfer), and so does a message that took longer than the first
  // polls: a sender's send time is only as exact as the clock offsets between ranks (docs/pmpi.md),
  // and a long wait must not become transfer by an offset's error. For a quick one, the error is
  // bounded by the few microseconds it waited, and a clock read saved.
  static PendingStamp await_stamp(Monitor& monitor, LayerContext& context, MpiFunction function,
                                  const ReceivePost& posted, int source, int tag, bool take,
                                  std::uint64_t* transfer_from_rt = nullptr) {
    StampProtocol& stamps = context.stamps;
    ControlChannel& control = context.control;
    const Shadow& shadow = posted.shadow;
    const vclock::Moment& post = posted.post;
    const WaitPlace place{index_of(function), posted.site};
    PendingStamp stamp;
    if (source == MPI_ANY_SOURCE) {
      WildcardReceive wildcard(monitor, control, context.wildcard_trace, shadow, tag, place,
                               post.vt);
      WaitPolicy::wait_until(monitor, control, wildcard.wait(), [&] {
        const std::optional<PendingStamp> chosen = wildcard.attempt(std::nullopt);
        if (!chosen || (take && !stamps.take_if_first(shadow, *chosen, tag))) {
          return false;
        }
        stamp = *chosen;
        return true;
      });
      wildcard.taken(index_of(function), stamp);
      if (transfer_from_rt != nullptr) {
        *transfer_from_rt = vclock::Moment::now(monitor.clock()).rt;
      }
      return stamp;
    }
    PeerWait wait(stamps, place, post.vt, shadow, source, tag);
    if (!take) {
      // A probe: the stamp stays for the receive; the probe's record needs its times.
      WaitPolicy::wait_until(monitor, control, wait,
                             [&] { return stamps.present(shadow, source, tag); });
      if (const std::optional<PendingStamp> seen = stamps.peek(shadow, source, tag)) {
        stamp = *seen;
      }
    } else {
      const bool waited = WaitPolicy::wait_until(monitor, control, wait, [&] {
        const auto arrived = stamps.try_take(shadow, source, tag);
        if (arrived) {
          stamp = *arrived;
        }
        return arrived.has_value();
      });
      if (waited && transfer_from_rt != nullptr) {
        *transfer_from_rt = vclock::Moment::now(monitor.clock()).rt;
      }
    }
    stamp.source = source;
    return stamp;
  }

  // Blocking receives: `pmpi(int source, MPI_Status*)`; a wildcard's source is decided first.
  template <typename Count, typename Call>
  static int recv(MpiFunction function, const MessageArguments<Count>& message, MPI_Status* status,
                  Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    LayerContext* const context = monitor != nullptr ? &LayerContext::process() : nullptr;
    const Shadow* shadow =
        context != nullptr ? context->stamps.shadows().find(message.comm) : nullptr;
    if (shadow == nullptr || message.peer == MPI_PROC_NULL || !awaits_stamp(*shadow, message)) {
      if (shadow == nullptr && context != nullptr) {
        await_unshadowed_message(*monitor, *context, message.peer, message.tag, message.comm);
      }
      return pmpi(message.peer, status);
    }
    PendingWork& pending = context->pending;
    pending.deferred.before_matching(*shadow);
    // No scope measures the work up to the wait: once the message is taken, continue_from
    // re-derives the intrusion from the post time, and this work falls into it.
    const std::uint64_t entry_ns = monitor->clock().source().now_ns();
    const bool moved = LayerWork::enter(*monitor, pending);
    const tables::SiteId site = monitor->comm_site(index_of(function));
    const vclock::Moment post = moved ? vclock::Moment::now(monitor->clock())
                                      : vclock::Moment::at(monitor->clock(), entry_ns);
    const ReceivePost posted{site, *shadow, post};
    vclock::Moment call{post.vt, monitor->clock().real_at(entry_ns)};
    const PendingStamp stamp = await_stamp(*monitor, *context, function, posted, message.peer,
                                           message.tag, true, &call.rt);
    // The data follows its stamp: find the record while it arrives.
    const ProbeCore::ComRecordRef record =
        monitor->com_record(site, shadow->world_rank_of(stamp.source));
    MPI_Status local;
    MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = pmpi(stamp.source, st);
    received(*monitor, pending, posted, call, rc, *st, stamp, &record);
    return rc;
  }

  // After a blocking receive (or the receiving half of a Sendrecv) returned; `stamp` is the
  // message's, already taken; `record`: its com record, if already found.
  static void received(Monitor& monitor, PendingWork& pending, const ReceivePost& posted,
                       const vclock::Moment& call, int rc, const MPI_Status& status,
                       const PendingStamp& stamp, const ProbeCore::ComRecordRef* record = nullptr) {
    StampProtocol& stamps = pending.stamps;
    const std::uint64_t end_ns = monitor.clock().source().now_ns();
    ClockUpdate update;
    LayerWork work(monitor, pending, end_ns, update);
    if (Receipt::consumed_message(rc, status)) {
      Receipt::taken(monitor, stamps, posted, {call, monitor.clock().real_at(end_ns), rc, status},
                     update, &stamp.stamp, record);
    } else {
      stamps.give_back(posted.shadow, stamp);
    }
  }

  // After a receive of a message whose stamp its matched probe took (Mrecv).
  static void received(Monitor& monitor, PendingWork& pending, const ReceivePost& posted, int rc,
                       const MPI_Status& status, const PendingStamp& stamp) {
    const std::uint64_t end_ns = monitor.clock().source().now_ns();
    ClockUpdate update;
    LayerWork work(monitor, pending, end_ns, update);
    if (Receipt::consumed_message(rc, status)) {
      Receipt::taken(monitor, pending.stamps, posted,
                     {posted.post, monitor.clock().real_at(end_ns), rc, status}, update,
                     &stamp.stamp);
    } else {
      pending.stamps.give_back(posted.shadow, stamp);
    }
  }

  // Nonblocking receives take their stamp when Wait/Test completes them; one from
  // MPI_ANY_SOURCE is deferred until its message is decided (DeferredReceives).
  template <typename Count, typename Call>
  static int irecv(MpiFunction function, void* buffer, const MessageArguments<Count>& message,
                   MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    LayerContext* const context = monitor != nullptr ? &LayerContext::process() : nullptr;
    StampProtocol* const process = monitor != nullptr ? &context->stamps : nullptr;
    const Shadow* shadow = process != nullptr ? process->shadows().find(message.comm) : nullptr;
    if (shadow == nullptr || message.peer == MPI_PROC_NULL) {
      return pmpi();
    }
    const vclock::Moment entry = vclock::Moment::now(monitor->clock());
    const tables::SiteId site = monitor->comm_site(index_of(function));
    if (message.peer == MPI_ANY_SOURCE && awaits_stamp(*shadow, message)) {
      LayerWork work(*monitor, context->pending);
      const MessageArguments<MPI_Count> any{message.count, message.datatype, message.peer,
                                            message.tag, message.comm};
      if (context->pending.deferred.defer(
              *monitor, context->control, context->wildcard_trace, function,
              {site, *shadow, entry, 0, monitor->statement_context(site)}, buffer, any, request)) {
        return MPI_SUCCESS;
      }
    }
    context->pending.deferred.before_matching(*shadow);
    const int rc = pmpi();
    if (rc == MPI_SUCCESS) {
      const std::uint64_t end_ns = monitor->clock().source().now_ns();
      const vclock::Moment returned = vclock::Moment::at(monitor->clock(), end_ns);
      LayerWork work(*monitor, context->pending, end_ns);
      track_receive(context->pending, context->requests,
                    {site, *shadow, entry, vclock::elapsed(entry.vt, returned.vt),
                     monitor->statement_context(site)},
                    message.peer, message.tag, *request);
    }
    return rc;
  }

  // A nonblocking receive from `source` with `tag` posted as `posted` (`own_ns`: the posting
  // call's own time), tracked in `table`. Its stamp is claimed now (PostedStamp) from a named
  // source, `held` when given (a matched probe's message: the probe took it); a wildcard holds
  // back the stamps it may take until it settles (PostedWildcards).
  static void track_receive(PendingWork& pending, RequestTable& table, const ReceivePost& posted,
                            int source, int tag, MPI_Request request,
                            const PendingStamp* held = nullptr) {
    TrackedRequest tracked;
    tracked.kind = TrackedRequest::Kind::Receive;
    tracked.site = posted.site;
    tracked.shadow = &posted.shadow;
    tracked.peer = source;
    tracked.tag = tag;
    tracked.post = posted.post;
    tracked.own_ns = posted.own_ns;
    tracked.context = posted.context;
    TrackedRequest* const inserted = table.insert(request, tracked);
    if (inserted != nullptr && held != nullptr) {
      inserted->stamp = {PostedStamp::State::Held, *held};
    } else if (inserted != nullptr && source != MPI_ANY_SOURCE) {
      pending.stamps.claim(posted.shadow, source, tag, inserted->stamp);
    } else if (inserted != nullptr) {
      posted.shadow.posted_wildcards.fetch_add(1, std::memory_order_relaxed);
      pending.posted_wildcards.posting(request, *inserted);
    }
  }

  template <typename Call>
  static int recv_init(MpiFunction function, int source, int tag, MPI_Comm comm,
                       MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const int rc = pmpi();
    LayerContext* const context = monitor != nullptr ? &LayerContext::process() : nullptr;
    StampProtocol* const process = monitor != nullptr ? &context->stamps : nullptr;
    const Shadow* shadow = process != nullptr ? process->shadows().find(comm) : nullptr;
    if (rc == MPI_SUCCESS && shadow != nullptr && source != MPI_PROC_NULL) {
      LayerWork work(*monitor, context->pending);
      TrackedRequest tracked;
      tracked.kind = TrackedRequest::Kind::PersistentReceive;
      tracked.site = monitor->comm_site(index_of(function));
      tracked.shadow = shadow;
      tracked.peer = source;
      tracked.tag = tag;
      context->requests.insert(*request, tracked);
    }
    return rc;
  }

  // Sendrecv and Sendrecv_replace: `pmpi(int source, MPI_Status*)` when the receive half
  // does not wait for a stamp. Otherwise the call runs as MPI defines Sendrecv:
  // `isend(MPI_Request*)` posts the send half, the receive half waits (polling) for its stamp,
  // is decided if a wildcard, and is taken with `recv(int source, MPI_Status*)`, then the send
  // completes. The data leaves before the receive waits: a partner that receives first and
  // sends after (MPI_Recv then MPI_Send) must not wait inside PMPI for data this rank holds
  // back until the partner's stamp has come.
  // `outgoing` and `incoming` share the communicator.
  template <typename Count, typename Call, typename Isend, typename Recv>
  static int sendrecv(MpiFunction function, const MessageArguments<Count>& outgoing,
                      const MessageArguments<Count>& incoming, MPI_Status* status, Call&& pmpi,
                      Isend&& isend, Recv&& recv) {
    Monitor* monitor = Layer::monitor();
    const int source = incoming.peer;
    LayerContext* const context = monitor != nullptr ? &LayerContext::process() : nullptr;
    const Shadow* shadow =
        context != nullptr ? context->stamps.shadows().find(incoming.comm) : nullptr;
    if (shadow == nullptr || !awaits_stamp(*shadow, incoming)) {
      return pmpi(source, status);
    }
    StampProtocol& stamps = context->stamps;
    PendingWork& pending = context->pending;
    pending.deferred.before_matching(*shadow);
    std::optional<StampedSend> send;
    tables::SiteId site;
    vclock::Moment post;
    {
      LayerWork work(*monitor, pending);
      send = stamp(*monitor, pending, function, outgoing, SendMode::Standard,
                   vclock::Moment::now(monitor->clock()));
      site = monitor->comm_site(index_of(function));
      post = vclock::Moment::now(monitor->clock());
    }
    const ReceivePost posted{site, *shadow, post};
    const auto send_done = [&](int rc) {
      if (send) {
        ClockUpdate unused;
        LayerWork work(*monitor, pending);
        sent(*monitor, *send, rc, nullptr, unused);
      }
    };
    MPI_Status local;
    MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
    if (source == MPI_PROC_NULL) {
      const int rc = pmpi(source, st);
      send_done(rc);
      return rc;
    }
    MPI_Request send_request = MPI_REQUEST_NULL;
    int rc = isend(&send_request);
    PendingStamp arrived;
    vclock::Moment call = post;
    if (rc == MPI_SUCCESS) {
      arrived = await_stamp(*monitor, *context, function, posted, source, incoming.tag, true);
      call.rt = vclock::Moment::now(monitor->clock()).rt;
      rc = recv(arrived.source, st);
      const PeerWait wait(stamps, {index_of(function), site}, post.vt, *shadow, outgoing.peer,
                          &send_request);
      const int sent_rc = WaitPolicy::block(
          *monitor, context->control, wait, [&] { return request_done(send_request); },
          [&] { return PMPI_Wait(&send_request, MPI_STATUS_IGNORE); });
      rc = rc == MPI_SUCCESS ? sent_rc : rc;
    }
    send_done(rc);
    received(*monitor, pending, posted, call, rc, *st, arrived);
    return rc;
  }

  // `count` elements of `datatype` at `buf`, packed into `packed`.
  template <typename Count>
  static int packed(const void* buf, Count count, MPI_Datatype datatype, MPI_Comm comm,
                    std::vector<char>& packed) {
    MPI_Count size = 0;
    if (const int rc = PMPI_Pack_size_c(count, datatype, comm, &size); rc != MPI_SUCCESS) {
      return rc;
    }
    packed.resize(static_cast<std::size_t>(size));
    MPI_Count position = 0;
    const int rc = PMPI_Pack_c(buf, count, datatype, packed.data(), size, &position, comm);
    packed.resize(static_cast<std::size_t>(position));
    return rc;
  }

  // Sends a packed copy of `buf` (a Sendrecv_replace whose buffer is about to receive).
  template <typename Count>
  static int isend_copy(const void* buf, Count count, MPI_Datatype datatype, int dest, int tag,
                        MPI_Comm comm, MPI_Request* request) {
    static thread_local std::vector<char> copy;
    if (const int rc = packed(buf, count, datatype, comm, copy); rc != MPI_SUCCESS) {
      return rc;
    }
    return PMPI_Isend_c(copy.data(), static_cast<MPI_Count>(copy.size()), MPI_PACKED, dest, tag,
                        comm, request);
  }

  // Whether PMPI would accept `message` as a send on `shadow`'s communicator.
  template <typename Count>
  static bool sendable(const Shadow& shadow, const MessageArguments<Count>& message) {
    return message.peer == MPI_PROC_NULL ||
           StampProtocol::checked_bytes(shadow, message.count, message.datatype, message.peer,
                                        message.tag)
               .has_value();
  }

  // Stamps `outgoing` as a standard send, runs `send_call` (the PMPI call that sends it) and
  // records the send once that call returned.
  template <typename Count, typename Call>
  static int stamped(Monitor& monitor, PendingWork& pending, MpiFunction function,
                     const MessageArguments<Count>& outgoing, Call&& send_call) {
    std::optional<StampedSend> send;
    {
      LayerWork work(monitor, pending);
      send = stamp(monitor, pending, function, outgoing, SendMode::Standard,
                   vclock::Moment::now(monitor.clock()));
    }
    const int rc = send_call();
    LayerWork work(monitor, pending);
    if (send) {
      ClockUpdate unused;
      sent(monitor, *send, rc, nullptr, unused);
    }
    return rc;
  }

  // Isendrecv and Isendrecv_replace (`sendbuf` null: the send's data is `recvbuf` as the call
  // finds it, packed first, since the receive overwrites it). MPICH 4.0 leaves such a request's
  // status unset, so the receive's stamp and partner cannot be found from it: the layer posts
  // the send itself and defers the receive (DeferredReceives::pair), and the program's request
  // completes with the receive's own status. `pmpi()` is the call itself, for what the layer
  // leaves to MPI (arguments MPI rejects, a receive from MPI_PROC_NULL, unmonitored
  // communicators).
  // `outgoing` and `incoming` share the communicator.
  template <typename Count, typename Call>
  static int isendrecv(MpiFunction function, const void* sendbuf,
                       const MessageArguments<Count>& outgoing, void* recvbuf,
                       const MessageArguments<Count>& incoming, MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    LayerContext* const context = monitor != nullptr ? &LayerContext::process() : nullptr;
    const Shadow* shadow =
        context != nullptr ? context->stamps.shadows().find(incoming.comm) : nullptr;
    if (shadow == nullptr || !awaits_stamp(*shadow, incoming) || !sendable(*shadow, outgoing)) {
      return pmpi();
    }
    PendingWork& pending = context->pending;
    if (incoming.peer == MPI_PROC_NULL) {
      return stamped(*monitor, pending, function, outgoing, pmpi);
    }
    if (incoming.peer != MPI_ANY_SOURCE) {
      pending.deferred.before_matching(*shadow);
    }
    std::vector<char> copy;
    if (sendbuf == nullptr) {
      LayerWork work(*monitor, pending);
      if (const int rc = packed(recvbuf, outgoing.count, outgoing.datatype, outgoing.comm, copy);
          rc != MPI_SUCCESS) {
        return rc;
      }
    }
    MPI_Request send_request = MPI_REQUEST_NULL;
    vclock::Moment post;
    const int rc = stamped(*monitor, pending, function, outgoing, [&] {
      post = vclock::Moment::now(monitor->clock());
      return sendbuf == nullptr
                 ? PMPI_Isend_c(copy.data(), static_cast<MPI_Count>(copy.size()), MPI_PACKED,
                                outgoing.peer, outgoing.tag, outgoing.comm, &send_request)
                 : PMPI_Isend_c(sendbuf, outgoing.count, outgoing.datatype, outgoing.peer,
                                outgoing.tag, outgoing.comm, &send_request);
    });
    if (rc != MPI_SUCCESS) {
      return rc;
    }
    LayerWork work(*monitor, pending);
    const MessageArguments<MPI_Count> receive{incoming.count, incoming.datatype, incoming.peer,
                                              incoming.tag, incoming.comm};
    const tables::SiteId site = monitor->comm_site(index_of(function));
    return pending.deferred.pair(*monitor, context->control, context->wildcard_trace, function,
                                 {site, *shadow, post, 0, monitor->statement_context(site)},
                                 recvbuf, receive, send_request, std::move(copy), request);
  }

  // Mrecv: the message's communicator comes from the Mprobe that matched it.
  template <typename Call>
  static int mrecv(MpiFunction function, MPI_Message* message, MPI_Status* status, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    if (monitor == nullptr || *message == MPI_MESSAGE_NO_PROC || *message == MPI_MESSAGE_NULL) {
      return pmpi(status);
    }
    LayerContext& context = LayerContext::process();
    const ProbedMessage probe = context.probed.take_matched(*message);
    if (probe.shadow == nullptr) {
      return pmpi(status);
    }
    const vclock::Moment entry = vclock::Moment::now(monitor->clock());
    const tables::SiteId site = monitor->comm_site(index_of(function));
    MPI_Status local;
    MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = pmpi(st);
    received(*monitor, context.pending, {site, *probe.shadow, entry}, rc, *st, probe.stamp);
    return rc;
  }

  template <typename Call>
  static int imrecv(MpiFunction function, MPI_Message* message, MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    if (monitor == nullptr || *message == MPI_MESSAGE_NO_PROC || *message == MPI_MESSAGE_NULL) {
      return pmpi();
    }
    LayerContext& context = LayerContext::process();
    const vclock::Moment entry = vclock::Moment::now(monitor->clock());
    const ProbedMessage probe = context.probed.take_matched(*message);
    const int rc = pmpi();
    if (probe.shadow != nullptr) {
      LayerWork work(*monitor, context.pending);
      if (rc == MPI_SUCCESS) {
        const tables::SiteId site = monitor->comm_site(index_of(function));
        track_receive(context.pending, context.requests,
                      {site, *probe.shadow, entry, 0, monitor->statement_context(site)},
                      probe.stamp.source, probe.stamp.tag, *request, &probe.stamp);
      } else {
        context.stamps.give_back(*probe.shadow, probe.stamp);
      }
    }
    return rc;
  }
};

} // namespace vcmon::runtime::mpi
