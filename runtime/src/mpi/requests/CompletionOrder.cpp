#include "mpi/requests/CompletionOrder.hpp"

#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/control/WaitPolicy.hpp"
#include "mpi/layer/ProgramErrorHandlers.hpp"
#include "mpi/requests/CompletionLedger.hpp"
#include "mpi/requests/LayerWork.hpp"
#include "mpi/requests/RequestCompletion.hpp"
#include "mpi/requests/RequestsWait.hpp"
#include "mpi/requests/ResumePoints.hpp"
#include "mpi/stamps/ReceivedSoFar.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "mpi/wildcard/SafeDecision.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace vcmon::runtime::mpi {
namespace {

// The communicator all active requests receive on from specific sources, or nullptr.
const Shadow* common_receive_shadow(RequestTable& table, std::span<const MPI_Request> requests) {
  const Shadow* shadow = nullptr;
  for (const MPI_Request request : requests) {
    if (request == MPI_REQUEST_NULL) {
      continue;
    }
    const TrackedRequest* tracked = table.find(request);
    if (tracked == nullptr) {
      return nullptr;
    }
    const bool receive =
        tracked->kind == TrackedRequest::Kind::Receive ||
        (tracked->kind == TrackedRequest::Kind::PersistentReceive && tracked->active);
    if (tracked->persistent() && !tracked->active) {
      continue; // inactive: MPI ignores it
    }
    if (!receive || tracked->peer < 0 || (shadow != nullptr && tracked->shadow != shadow)) {
      return nullptr;
    }
    shadow = tracked->shadow;
  }
  return shadow;
}

} // namespace

std::optional<int> CompletionOrder::complete_first(Monitor& monitor, PendingWork& pending,
                                                   RequestTable& table, ControlChannel& control,
                                                   WildcardTrace& trace, MpiFunction function,
                                                   std::span<MPI_Request> requests, int* index,
                                                   int* flag, MPI_Status* status) {
  StampProtocol& stamps = pending.stamps;
  const Shadow* shadow = common_receive_shadow(table, requests);
  if (shadow == nullptr) {
    return std::nullopt;
  }
  const vclock::Moment call = vclock::Moment::now(monitor.clock());
  const RequestsWait waiting(pending, table,
                             {index_of(function), monitor.comm_site(index_of(function))}, call.vt,
                             requests, RequestsWait::Needs::One);
  SafeDecision decision(monitor, control, trace, *shadow);
  // Scratch per thread: no allocation once grown to the largest call. Each attempt resets it, so
  // that each request's search costs O(1) amortised and a call over thousands of requests is
  // not quadratic (4 000 receives completed by Waitany took 5 s against 0.7 s): which inbox
  // entries an earlier request of the attempt claimed, where the search for a (source, tag)
  // resumes (every match before it is claimed), and which sources have a candidate.
  static thread_local std::vector<vclock::WildcardCandidate> candidates;
  static thread_local std::vector<vclock::SenderBound> senders;
  static thread_local std::vector<PendingStamp> candidate_stamps; // the candidates' stamps
  static thread_local std::vector<char> claimed;
  static thread_local ResumePoints resume;
  static thread_local std::vector<char> has_candidate;
  static thread_local ReceivedSoFar sight;
  std::uint64_t first_candidate_rt = 0;
  std::optional<vclock::WildcardCandidate> chosen;
  const auto attempt = [&](std::optional<std::uint64_t> horizon) {
    candidates.clear();
    senders.clear();
    candidate_stamps.clear();
    resume.reset(requests.size());
    {
      const StampProtocol::Hold hold(stamps); // the inbox, until the candidates are copied
      stamps.drain();
      claimed.assign(shadow->inbox.size(), 0);
      for (std::size_t i = 0; i < requests.size(); ++i) {
        TrackedRequest* tracked =
            requests[i] != MPI_REQUEST_NULL ? table.find(requests[i]) : nullptr;
        if (tracked == nullptr || (tracked->persistent() && !tracked->active)) {
          continue;
        }
        const int rank = shadow->world_rank_of(tracked->peer);
        if (tracked->stamp.state != PostedStamp::State::None) { // claimed when posted
          if (stamps.arrived(*shadow, tracked->stamp)) {
            candidates.push_back({rank, tracked->stamp.entry.stamp.send_vt_ns, i});
            candidate_stamps.push_back(tracked->stamp.entry);
          } else {
            senders.push_back({rank, 0}); // its bound: below
          }
          continue;
        }
        // The stamp of this request's message: the first from its source matching its tag that
        // an earlier request of the call has not claimed.
        std::size_t& from =
            resume.at((std::uint64_t{static_cast<std::uint32_t>(tracked->peer)} << 32) |
                      static_cast<std::uint32_t>(tracked->tag));
        std::optional<std::size_t> entry = shadow->inbox.find(tracked->peer, tracked->tag, from);
        while (entry && claimed[*entry] != 0) {
          entry = shadow->inbox.find(tracked->peer, tracked->tag, *entry + 1);
        }
        if (entry) {
          claimed[*entry] = 1;
          from = *entry + 1;
          candidates.push_back({rank, shadow->inbox[*entry].stamp.send_vt_ns, i});
          candidate_stamps.push_back(shadow->inbox[*entry]);
        } else {
          senders.push_back({rank, 0});
        }
      }
      // Bounds and counts as the candidates were read: a stamp filed after them must not speak
      // for a sender whose earlier message is not among them (ReceivedSoFar).
      sight.read(stamps.counts(), stamps.bounds(), monitor.world_size());
    }
    for (vclock::SenderBound& sender : senders) {
      sender.earliest_send_ns = sight.bound_of(sender.source);
    }
    // A source with a stamp here cannot be overtaken by its own later messages.
    has_candidate.assign(static_cast<std::size_t>(monitor.world_size()), 0);
    for (const vclock::WildcardCandidate& candidate : candidates) {
      has_candidate[static_cast<std::size_t>(candidate.source)] = 1;
    }
    std::erase_if(senders, [&](const vclock::SenderBound& s) {
      return has_candidate[static_cast<std::size_t>(s.source)] != 0;
    });
    if (!candidates.empty() && first_candidate_rt == 0) {
      first_candidate_rt = vclock::Moment::now(monitor.clock()).rt;
    }
    chosen = decision.decide(candidates, senders, sight, waiting, horizon);
    return chosen.has_value();
  };
  if (flag != nullptr) {
    control.serve_if_due(call);
    bool ready;
    {
      LayerWork work(monitor, pending);
      ready = attempt(call.vt);
    }
    if (!ready) {
      *flag = 0;
      *index = MPI_UNDEFINED;
      return MPI_SUCCESS;
    }
    *flag = 1;
  } else {
    WaitPolicy::wait_until(monitor, control, waiting, [&] { return attempt(std::nullopt); });
  }
  const std::size_t i = chosen->slot;
  const MPI_Request handle = requests[i];
  TrackedRequest& tracked = *table.find(handle);
  const PendingStamp stamp = candidate_stamps[static_cast<std::size_t>(
      std::distance(candidates.begin(), std::find_if(candidates.begin(), candidates.end(),
                                                     [&](const auto& c) { return c.slot == i; })))];
  // Its sender has sent: the data follows at once.
  const vclock::Moment decided = vclock::Moment::now(monitor.clock());
  const PeerWait data(stamps, {index_of(function), tracked.site}, call.vt, *shadow, tracked.peer,
                      &requests[i]);
  MPI_Status local;
  MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
  const int rc = WaitPolicy::block(
      monitor, control, data, [&] { return request_done(requests[i]); },
      [&] {
        table.hide_while_completing(&tracked);
        const int wait_rc = PMPI_Wait(&requests[i], st);
        table.show_if_alive(requests[i], &tracked);
        return wait_rc;
      });
  *index = static_cast<int>(i);
  const std::uint64_t end_ns = monitor.clock().source().now_ns();
  CompletionCharge charge(monitor, pending, function, call, end_ns);
  decision.record(index_of(function), stamp, first_candidate_rt, decided.rt);
  RequestCompletion::completed(monitor, pending, table, tracked, *st, rc, {call.vt, decided.rt},
                               monitor.clock().real_at(end_ns), charge.update());
  return rc;
}

} // namespace vcmon::runtime::mpi
