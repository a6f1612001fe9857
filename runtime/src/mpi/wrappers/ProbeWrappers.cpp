// MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe. A blocking probe waits in the layer until its
// message's sender has sent (a wildcard decides which message by virtual time: docs/design.md,
// "Wildcard receives in virtual order"), then lets PMPI probe exactly that source. A nonblocking
// probe reports a message only once it is safe and its virtual send time has passed on this
// process's clock, so that a polling loop sees what it would have seen unmonitored; a loop that
// only spins on one poll takes the message as soon as it is safe (`spins`). Every probe is
// a record of its own (docs/runtime.md, "Accounting"): one that found a message holds its waiting
// per partner, as a receive would, and the clock goes on from the message's arrival; a poll that
// found nothing holds its own time. The layer notes which communicator an Mprobe'd message belongs
// to.
#include "mpi/clock/CallTime.hpp"
#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/layer/CallerCounters.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/requests/DeferredReceives.hpp"
#include "mpi/requests/LayerWork.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/wildcard/WildcardReceive.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "mpi/wrappers/PointToPoint.hpp"
#include "mpi/wrappers/PolledRequest.hpp"
#include "mpi/wrappers/ProbedMessages.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <mpi.h>

#include <memory>
#include <optional>

namespace vcmon::runtime::mpi {
namespace {

// A probe entered at `probed` found the message of `stamp` and returns now: its record holds
// the waiting for the sender (synchronisation delay) and the rest (transmission), as a
// receive's would, and the clock goes on from the message's arrival, where the unmonitored
// probe would have returned. An Mprobe'd message is remembered in `matched` for its Mrecv, with
// `stamp`, which the caller took from the inbox.
void found(Monitor& monitor, PendingWork& pending, tables::SiteId site, const Shadow& shadow,
           const vclock::Moment& probed, const PendingStamp& stamp, const MPI_Status& status,
           MPI_Message* message, ProbedMessages& matched) {
  const std::uint64_t end_ns = monitor.clock().source().now_ns();
  ClockUpdate update;
  LayerWork work(monitor, pending, end_ns, update);
  const std::uint64_t end_rt = monitor.clock().real_at(end_ns);
  const vclock::MessageStamp sent = seen_by(stamp.stamp, end_rt);
  const vclock::Moment sender{sent.send_vt_ns, sent.send_rt_ns};
  const std::uint64_t transfer = transfer_ns(probed, sender, end_rt);
  const vclock::ReceiveTiming timing = vclock::receive_timing(probed.vt, sent, transfer);
  monitor.record_com(site, shadow.world_rank_of(status.MPI_SOURCE), timing.transmission_ns,
                     timing.sync_delay_ns, 0, false);
  update.include(completion_vt(probed, sender, end_rt));
  if (message != nullptr && *message != MPI_MESSAGE_NO_PROC) {
    matched.remember_matched(*message, shadow, stamp);
  }
}

// A probe the layer handles: what it works with, and when it was entered.
struct MonitoredProbe {
  Monitor& monitor;
  LayerContext& context;
  const Shadow& shadow; // of the probed communicator
  vclock::Moment probed;
};

// nullopt when PMPI takes a probe of `source` and `tag` in `comm` as it is (no monitor, an
// unmonitored communicator, MPI_PROC_NULL, or arguments whose error must come from PMPI).
std::optional<MonitoredProbe> monitored_probe(int source, int tag, MPI_Comm comm) {
  Monitor* monitor = Layer::monitor();
  LayerContext* context = layer_parts(monitor).context;
  const Shadow* shadow = context != nullptr ? context->stamps.shadows().find(comm) : nullptr;
  if (shadow == nullptr || source == MPI_PROC_NULL ||
      !StampProtocol::receivable(*shadow, 0, MPI_BYTE, source, tag)) {
    return std::nullopt;
  }
  context->pending.deferred.before_matching(*shadow);
  return MonitoredProbe{*monitor, *context, *shadow, vclock::Moment::now(monitor->clock())};
}

// `pmpi(int source, MPI_Status*)` probes (and matches, for Mprobe) `source`.
template <typename Call>
int blocking_probe(MpiFunction function, int source, int tag, MPI_Comm comm, MPI_Status* status,
                   MPI_Message* message, Call&& pmpi) {
  const std::optional<MonitoredProbe> probe = monitored_probe(source, tag, comm);
  if (!probe) {
    Monitor* monitor = Layer::monitor();
    if (LayerContext* context = layer_parts(monitor).context) {
      await_unshadowed_message(*monitor, *context, source, tag, comm);
    }
    return pmpi(source, status);
  }
  auto& [monitor, context, shadow, probed] = *probe;
  tables::SiteId site;
  {
    LayerWork work(monitor, context.pending);
    site = monitor.comm_site(index_of(function));
  }
  // A matched probe takes its message's stamp as it decides, as a receive does: left in the
  // inbox, another thread's Mprobe chose the same message and then waited in PMPI_Mprobe for a
  // further one from that source (MPI_THREAD_MULTIPLE).
  const bool matches = message != nullptr;
  const PendingStamp stamp = PointToPoint::await_stamp(
      monitor, context, function, {site, shadow, probed}, source, tag, matches);
  MPI_Status local;
  MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
  const int rc = pmpi(stamp.source, st);
  if (rc == MPI_SUCCESS) {
    found(monitor, context.pending, site, shadow, probed, stamp, *st, message, context.probed);
  } else if (matches) {
    context.stamps.give_back(shadow, stamp);
  }
  return rc;
}

// The wildcard decision of this thread's polling loop, kept across its Iprobe calls (the
// back-off of cycle breaking, what it permitted) while it polls the same communicator and tag.
struct Poll {
  const Shadow* shadow;
  int tag;
  std::unique_ptr<WildcardReceive> decision;
};
thread_local Poll poll __attribute__((tls_model("initial-exec"))){nullptr, 0, nullptr};

// A loop that does nothing but poll spins, unmonitored, until the message arrives, and then
// takes it: a poll that repeats this thread's previous MPI call, an empty poll of the same
// message, within kSpinGapNs of program time, may take a safe message whose virtual arrival
// lies ahead of its clock and go on from that arrival, as MPI_Probe would. Without it such a
// loop reached a late sender's arrival only at the pace its polls left its clock: the layer's
// part of each poll is intrusion, so a 0.5 s wait took 3-7 times plain's real time
// (bench_polling, docs/transparency.md). Any other MPI call between the polls (MPI_Wtime in
// virtual time included) keeps the horizon: that call could have seen something unmonitored
// before the message came. Only where one thread at a time
// calls MPI: with MPI_THREAD_MULTIPLE a thread that resumes from a later arrival raises the
// floor of every thread of the process (docs/runtime.md, "Threads"), and another thread may act
// between this one's polls.
constexpr std::uint64_t kSpinGapNs = 10'000;
struct EmptyPoll {
  const Shadow* shadow; // nullptr: the thread's last poll found its message
  MpiFunction function;
  int source;
  int tag;
  std::uint64_t entry_vt;
  std::uint64_t mpi_events; // the thread's count (ThreadState::mpi_events) as it returned
};
thread_local EmptyPoll last_empty_poll __attribute__((tls_model("initial-exec"))){};

bool spins(const EmptyPoll& last, MpiFunction function, const Shadow& shadow, int source, int tag,
           std::uint64_t entry_vt, std::uint64_t mpi_events) {
  return !CallerCounters::concurrent_callers() && last.shadow == &shadow &&
         last.function == function && last.source == source && last.tag == tag &&
         last.mpi_events == mpi_events && entry_vt >= last.entry_vt &&
         entry_vt - last.entry_vt <= kSpinGapNs;
}

WildcardReceive& polling_decision(Monitor& monitor, LayerContext& context, const Shadow& shadow,
                                  int tag, MpiFunction function, tables::SiteId site,
                                  std::uint64_t vt) {
  if (poll.shadow != &shadow || poll.tag != tag || !poll.decision) {
    poll = {&shadow, tag,
            std::make_unique<WildcardReceive>(monitor, context.control, context.wildcard_trace,
                                              shadow, tag, WaitPlace{index_of(function), site},
                                              vt)};
  }
  return *poll.decision;
}

// `pmpi(int source, MPI_Status*)` probes `source` and sets *flag.
template <typename Call>
int polling_probe(MpiFunction function, int source, int tag, MPI_Comm comm, int* flag,
                  MPI_Status* status, MPI_Message* message, Call&& pmpi) {
  const std::optional<MonitoredProbe> probe = monitored_probe(source, tag, comm);
  if (!probe) {
    return pmpi(source, status);
  }
  auto& [monitor, context, shadow, probed] = *probe;
  std::optional<PendingStamp> ready;
  ThreadState& thread = monitor.this_thread();
  // A poll that found nothing holds its own time, and may be the one a spin repeats.
  const auto returned_empty = [&] {
    record_call_time(monitor, function, probed.vt);
    last_empty_poll = {&shadow, function, source, tag, probed.vt, thread.mpi_events};
  };
  {
    LayerWork work(monitor, context.pending);
    const std::optional<std::uint64_t> horizon =
        spins(last_empty_poll, function, shadow, source, tag, probed.vt, thread.mpi_events)
            ? std::nullopt
            : std::optional<std::uint64_t>(probed.vt);
    // Until it returns empty, the poll is no spin's predecessor.
    last_empty_poll.shadow = nullptr;
    context.control.serve_if_due(probed);
    // When another thread is filing or reading stamps, this poll finds nothing yet.
    if (source == MPI_ANY_SOURCE) {
      // The decision runs outside the stamps' lock (WildcardReceive::attempt): every run of
      // threads_poll_and_block hung when the poll decided holding it.
      WildcardReceive& wildcard =
          polling_decision(monitor, context, shadow, tag, function,
                           monitor.comm_site(index_of(function)), probed.vt);
      ready = wildcard.attempt(horizon, true, StampLock::Wait::No);
    } else if (const StampProtocol::Hold stamps(context.stamps, StampLock::Wait::No);
               !stamps.missed()) {
      context.stamps.drain();
      ready = context.stamps.peek(shadow, source, tag);
      if (ready && horizon && ready->stamp.send_vt_ns > *horizon) {
        ready.reset();
      }
    }
  }
  if (!ready) {
    // The poll still costs what it costs unmonitored, in the program's time, and drives MPI's
    // progress as it would: a poll that cost nothing let a spinning loop poll twice as often
    // per virtual second as unmonitored, and take 15 times as long in real time to reach the
    // message's virtual arrival. Not matching: what it finds is the layer's to decide.
    int present = 0;
    MPI_Status unused;
    const int rc = PMPI_Iprobe(source, tag, comm, &present, &unused);
    *flag = 0;
    if (message != nullptr) {
      *message = MPI_MESSAGE_NULL;
    }
    returned_empty();
    return rc;
  }
  MPI_Status local;
  MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
  const int rc = pmpi(ready->source, st);
  if (rc == MPI_SUCCESS && *flag) {
    if (source == MPI_ANY_SOURCE) {
      LayerWork work(monitor, context.pending);
      // The next poll decides the next message afresh.
      poll.decision->taken(index_of(function), *ready);
      poll.decision.reset();
    }
    if (message != nullptr) {
      ready->stamp = context.stamps.take(shadow, st->MPI_SOURCE, st->MPI_TAG);
    }
    found(monitor, context.pending, monitor.comm_site(index_of(function)), shadow, probed, *ready,
          *st, message, context.probed);
  } else if (rc == MPI_SUCCESS) {
    returned_empty();
  }
  return rc;
}

} // namespace
} // namespace vcmon::runtime::mpi

using namespace vcmon::runtime::mpi;

extern "C" int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return blocking_probe(MpiFunction::Probe, source, tag, comm, status, nullptr,
                        [&](int from, MPI_Status* st) { return PMPI_Probe(from, tag, comm, st); });
}

extern "C" int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return polling_probe(
      MpiFunction::Iprobe, source, tag, comm, flag, status, nullptr,
      [&](int from, MPI_Status* st) { return PMPI_Iprobe(from, tag, comm, flag, st); });
}

extern "C" int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message,
                          MPI_Status* status) {
  return blocking_probe(
      MpiFunction::Mprobe, source, tag, comm, status, message,
      [&](int from, MPI_Status* st) { return PMPI_Mprobe(from, tag, comm, message, st); });
}

extern "C" int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                           MPI_Status* status) {
  return polling_probe(
      MpiFunction::Improbe, source, tag, comm, flag, status, message,
      [&](int from, MPI_Status* st) { return PMPI_Improbe(from, tag, comm, flag, message, st); });
}
