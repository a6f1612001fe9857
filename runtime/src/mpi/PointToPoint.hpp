// The shapes every point-to-point wrapper takes (blocking or not, send, receive or both), as
// templates over the count type (int, MPI_Count) and the PMPI call itself. The wrappers in
// PointToPointWrappers.cpp only bind arguments.
#pragma once

#include "mpi/ClockUpdate.hpp"
#include "mpi/Layer.hpp"
#include "mpi/LayerRequests.hpp"
#include "mpi/LayerWork.hpp"
#include "mpi/Moment.hpp"
#include "mpi/MpiFunctionTable.hpp"
#include "mpi/ProbedMessages.hpp"
#include "mpi/Receipt.hpp"
#include "mpi/RequestTable.hpp"
#include "mpi/ShadowCommunicators.hpp"
#include "mpi/StampProtocol.hpp"
#include "mpi/WaitPolicy.hpp"

#include <mpi.h>

#include <optional>

namespace vcmon::runtime::mpi {

// How a send's stamp relates to its data. A buffered send can fail for lack of buffer space,
// which the layer cannot predict (MPICH's buffer layout is its own), so its stamp follows the
// data once the send succeeded; every other send's stamp goes first.
enum class SendMode { Standard, Synchronous, Buffered };

// A send whose stamp has left.
struct StampedSend {
  const Shadow* shadow = nullptr;
  tables::SiteId site = tables::kNoSite;
  int dest = MPI_PROC_NULL;
  std::uint64_t bytes = 0;
  Moment start;
  LayerRequest* reply = nullptr; // synchronous sends
};

class PointToPoint {
public:
  // Stamps a send unless it goes nowhere (MPI_PROC_NULL), on an unmonitored communicator, or
  // with arguments PMPI will reject.
  template <typename Count>
  static std::optional<StampedSend> stamp(Monitor& monitor, MpiFunction function, Count count,
                                          MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                                          SendMode mode, const Moment& start) {
    const Shadow* shadow = ShadowCommunicators::find(comm);
    if (shadow == nullptr || dest == MPI_PROC_NULL) {
      return std::nullopt;
    }
    const std::optional<std::uint64_t> bytes =
        StampProtocol::checked_bytes(*shadow, count, datatype, dest, tag);
    if (!bytes) {
      return std::nullopt;
    }
    const bool synchronous = mode == SendMode::Synchronous;
    StampedSend send{shadow, monitor.comm_site(index_of(function)), dest, *bytes, start};
    if (synchronous) {
      send.reply = &LayerRequests::post_sync_reply(*shadow, dest, tag, send.site, *bytes);
    }
    StampProtocol::send_stamp(
        *shadow, dest, tag, {send.start.vt, send.start.rt, *bytes, synchronous ? kSynchronous : 0});
    return send;
  }

  // After the send's PMPI call returned `rc`; `completed`: the call was blocking.
  static void sent(Monitor& monitor, const StampedSend& send, int rc, bool completed,
                   ClockUpdate& update) {
    if (send.reply != nullptr) {
      if (rc == MPI_SUCCESS && completed) {
        LayerRequests::user_completed(monitor, *send.reply, send.start, update);
      } else if (rc != MPI_SUCCESS) {
        LayerRequests::withdraw(*send.reply);
      }
      return;
    }
    const std::uint64_t duration =
        completed ? elapsed(send.start.vt, Moment::now(monitor.clock()).vt) : 0;
    monitor.record_com(send.site, send.shadow->world_rank_of(send.dest), duration, 0, send.bytes);
  }

  template <typename Count, typename Call>
  static int send(MpiFunction function, SendMode mode, Count count, MPI_Datatype datatype, int dest,
                  int tag, MPI_Comm comm, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    if (monitor == nullptr) {
      return pmpi();
    }
    const Moment start = Moment::now(monitor->clock());
    std::optional<StampedSend> send;
    if (mode != SendMode::Buffered) {
      LayerWork work(*monitor);
      send = stamp(*monitor, function, count, datatype, dest, tag, comm, mode, start);
    }
    const int rc = WaitPolicy::block(pmpi);
    ClockUpdate update;
    {
      LayerWork work(*monitor);
      if (mode == SendMode::Buffered && rc == MPI_SUCCESS) {
        send = stamp(*monitor, function, count, datatype, dest, tag, comm, mode, start);
      }
      if (send) {
        sent(*monitor, *send, rc, true, update);
      }
    }
    update.apply(monitor->clock());
    return rc;
  }

  template <typename Count, typename Call>
  static int isend(MpiFunction function, SendMode mode, Count count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    if (monitor == nullptr) {
      return pmpi();
    }
    const Moment start = Moment::now(monitor->clock());
    std::optional<StampedSend> send;
    if (mode != SendMode::Buffered) {
      LayerWork work(*monitor);
      send = stamp(*monitor, function, count, datatype, dest, tag, comm, mode, start);
    }
    const int rc = pmpi();
    LayerWork work(*monitor);
    if (mode == SendMode::Buffered && rc == MPI_SUCCESS) {
      send = stamp(*monitor, function, count, datatype, dest, tag, comm, mode, start);
    }
    if (send) {
      track_send(*monitor, *send, rc, *request);
    }
    return rc;
  }

  // A nonblocking send posted: synchronous ones wait for their reply at completion.
  static void track_send(Monitor& monitor, const StampedSend& send, int rc, MPI_Request request) {
    ClockUpdate unused;
    if (send.reply == nullptr || rc != MPI_SUCCESS) {
      sent(monitor, send, rc, false, unused);
      return;
    }
    TrackedRequest tracked;
    tracked.kind = TrackedRequest::Kind::SyncSend;
    tracked.site = send.site;
    tracked.shadow = send.shadow;
    tracked.post = send.start;
    tracked.layer = send.reply;
    if (request_table().insert(request, tracked) == nullptr) {
      LayerRequests::withdraw(*send.reply);
    }
  }

  // Persistent sends: validated now, stamped at every MPI_Start.
  template <typename Count, typename Call>
  static int send_init(MpiFunction function, SendMode mode, Count count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm, MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const int rc = pmpi();
    if (monitor == nullptr || rc != MPI_SUCCESS) {
      return rc;
    }
    LayerWork work(*monitor);
    const Shadow* shadow = ShadowCommunicators::find(comm);
    if (shadow == nullptr || dest == MPI_PROC_NULL) {
      return rc;
    }
    if (const auto bytes = StampProtocol::checked_bytes(*shadow, count, datatype, dest, tag)) {
      TrackedRequest tracked;
      tracked.kind = TrackedRequest::Kind::PersistentSend;
      tracked.synchronous = mode == SendMode::Synchronous;
      tracked.site = monitor->comm_site(index_of(function));
      tracked.shadow = shadow;
      tracked.peer = dest;
      tracked.tag = tag;
      tracked.bytes = *bytes;
      request_table().insert(*request, tracked);
    }
    return rc;
  }

  // Blocking receives: `pmpi(MPI_Status*)`.
  template <typename Call>
  static int recv(MpiFunction function, int source, int tag, MPI_Comm comm, MPI_Status* status,
                  Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const Shadow* shadow = monitor != nullptr ? ShadowCommunicators::find(comm) : nullptr;
    if (shadow == nullptr || source == MPI_PROC_NULL) {
      return pmpi(status);
    }
    tables::SiteId site;
    Moment post;
    {
      LayerWork work(*monitor);
      site = monitor->comm_site(index_of(function));
      post = ProbedMessages::receive_post(*shadow, source, tag, Moment::now(monitor->clock()));
    }
    MPI_Status local;
    MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = WaitPolicy::block([&] { return pmpi(st); });
    received(*monitor, site, *shadow, post, rc, *st);
    return rc;
  }

  // After a blocking receive (or the receiving half of a Sendrecv) returned.
  static void received(Monitor& monitor, tables::SiteId site, const Shadow& shadow,
                       const Moment& post, int rc, const MPI_Status& status) {
    const std::uint64_t end_rt = Moment::now(monitor.clock()).rt;
    ClockUpdate update;
    {
      LayerWork work(monitor);
      if (Receipt::consumed_message(rc, status)) {
        Receipt::taken(monitor, site, shadow, post, post, end_rt, status, update);
      }
    }
    update.apply(monitor.clock());
  }

  // Nonblocking receives take their stamp when Wait/Test completes them.
  template <typename Call>
  static int irecv(MpiFunction function, int source, int tag, MPI_Comm comm, MPI_Request* request,
                   Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const Shadow* shadow = monitor != nullptr ? ShadowCommunicators::find(comm) : nullptr;
    if (shadow == nullptr || source == MPI_PROC_NULL) {
      return pmpi();
    }
    const Moment post =
        ProbedMessages::receive_post(*shadow, source, tag, Moment::now(monitor->clock()));
    const int rc = pmpi();
    if (rc == MPI_SUCCESS) {
      LayerWork work(*monitor);
      track_receive(*monitor, function, *shadow, post, *request);
    }
    return rc;
  }

  static void track_receive(Monitor& monitor, MpiFunction function, const Shadow& shadow,
                            const Moment& post, MPI_Request request) {
    TrackedRequest tracked;
    tracked.kind = TrackedRequest::Kind::Receive;
    tracked.site = monitor.comm_site(index_of(function));
    tracked.shadow = &shadow;
    tracked.post = post;
    request_table().insert(request, tracked);
  }

  template <typename Call>
  static int recv_init(MpiFunction function, int source, MPI_Comm comm, MPI_Request* request,
                       Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const int rc = pmpi();
    const Shadow* shadow = monitor != nullptr ? ShadowCommunicators::find(comm) : nullptr;
    if (rc == MPI_SUCCESS && shadow != nullptr && source != MPI_PROC_NULL) {
      LayerWork work(*monitor);
      TrackedRequest tracked;
      tracked.kind = TrackedRequest::Kind::PersistentReceive;
      tracked.site = monitor->comm_site(index_of(function));
      tracked.shadow = shadow;
      request_table().insert(*request, tracked);
    }
    return rc;
  }

  // Sendrecv and Sendrecv_replace: `pmpi(MPI_Status*)`.
  template <typename Count, typename Call>
  static int sendrecv(MpiFunction function, Count sendcount, MPI_Datatype sendtype, int dest,
                      int sendtag, Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                      MPI_Comm comm, MPI_Status* status, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const Shadow* shadow = monitor != nullptr ? ShadowCommunicators::find(comm) : nullptr;
    if (shadow == nullptr) {
      return pmpi(status);
    }
    std::optional<StampedSend> send;
    tables::SiteId site;
    Moment post;
    {
      LayerWork work(*monitor);
      if (StampProtocol::receivable(*shadow, recvcount, recvtype, source, recvtag)) {
        send = stamp(*monitor, function, sendcount, sendtype, dest, sendtag, comm,
                     SendMode::Standard, Moment::now(monitor->clock()));
      }
      site = monitor->comm_site(index_of(function));
      post = ProbedMessages::receive_post(*shadow, source, recvtag, Moment::now(monitor->clock()));
    }
    MPI_Status local;
    MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = WaitPolicy::block([&] { return pmpi(st); });
    if (send) {
      ClockUpdate unused;
      LayerWork work(*monitor);
      sent(*monitor, *send, rc, false, unused);
    }
    if (source != MPI_PROC_NULL) {
      received(*monitor, site, *shadow, post, rc, *st);
    }
    return rc;
  }

  // Isendrecv and Isendrecv_replace.
  template <typename Count, typename Call>
  static int isendrecv(MpiFunction function, Count sendcount, MPI_Datatype sendtype, int dest,
                       int sendtag, Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                       MPI_Comm comm, MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const Shadow* shadow = monitor != nullptr ? ShadowCommunicators::find(comm) : nullptr;
    if (shadow == nullptr) {
      return pmpi();
    }
    std::optional<StampedSend> send;
    Moment post;
    {
      LayerWork work(*monitor);
      if (StampProtocol::receivable(*shadow, recvcount, recvtype, source, recvtag)) {
        send = stamp(*monitor, function, sendcount, sendtype, dest, sendtag, comm,
                     SendMode::Standard, Moment::now(monitor->clock()));
      }
      post = ProbedMessages::receive_post(*shadow, source, recvtag, Moment::now(monitor->clock()));
    }
    const int rc = pmpi();
    LayerWork work(*monitor);
    if (send) {
      ClockUpdate unused;
      sent(*monitor, *send, rc, false, unused);
    }
    if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) {
      track_receive(*monitor, function, *shadow, post, *request);
    }
    return rc;
  }

  // Mrecv: the message's communicator comes from the Mprobe that matched it.
  template <typename Call>
  static int mrecv(MpiFunction function, MPI_Message* message, MPI_Status* status, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    if (monitor == nullptr || *message == MPI_MESSAGE_NO_PROC || *message == MPI_MESSAGE_NULL) {
      return pmpi(status);
    }
    const ProbedMessage probe = ProbedMessages::take_matched(*message);
    if (probe.shadow == nullptr) {
      return pmpi(status);
    }
    const tables::SiteId site = monitor->comm_site(index_of(function));
    MPI_Status local;
    MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
    const int rc = pmpi(st);
    received(*monitor, site, *probe.shadow, probe.probed, rc, *st);
    return rc;
  }

  template <typename Call>
  static int imrecv(MpiFunction function, MPI_Message* message, MPI_Request* request, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    if (monitor == nullptr || *message == MPI_MESSAGE_NO_PROC || *message == MPI_MESSAGE_NULL) {
      return pmpi();
    }
    const ProbedMessage probe = ProbedMessages::take_matched(*message);
    const int rc = pmpi();
    if (rc == MPI_SUCCESS && probe.shadow != nullptr) {
      LayerWork work(*monitor);
      track_receive(*monitor, function, *probe.shadow, probe.probed, *request);
    }
    return rc;
  }
};

} // namespace vcmon::runtime::mpi
