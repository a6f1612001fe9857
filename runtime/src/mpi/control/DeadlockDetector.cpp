#include "mpi/control/DeadlockDetector.hpp"

#include "core/Log.hpp"
#include "core/MpiFunctionTable.hpp"
#include "mpi/control/ControlStateExchange.hpp"
#include "mpi/layer/CallDescription.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "vcmon/deadlock/CycleBreaker.hpp"

#include <mpi.h>

#include <algorithm>
#include <sched.h>
#include <set>
#include <string>
#include <vector>

namespace vcmon::runtime::mpi {
namespace {

std::string join(const std::vector<deadlock::Rank>& ranks, const char* separator) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    text += (i == 0 ? "" : separator) + std::to_string(ranks[i]);
  }
  return text;
}

// One check: the decision, and every answer it rests on (this rank's own included).
struct Verdict {
  deadlock::Decision decision;
  std::map<deadlock::Rank, StateReply> replies;
};

StateReply own_reply(Monitor& monitor, ControlChannel& control) {
  control.stamps().drain(); // what has arrived counts, as in every other rank's answer
  StateReply own;
  own.answered = true;
  own.generation = control.waits().generation();
  own.state = control.own_state(monitor, &own.place);
  return own;
}

Verdict decide_now(Monitor& monitor, ControlChannel& control) {
  Verdict verdict;
  const StateReply own = own_reply(monitor, control);
  deadlock::UndecidedReceive receive{
      own.state, {}, known_bounds(control.stamps().bounds(), monitor.world_size())};
  ControlStateExchange exchange(monitor, control);
  verdict.decision = deadlock::CycleBreaker().decide(receive, exchange);
  verdict.replies = exchange.replies();
  verdict.replies[own.state.rank] = own;
  return verdict;
}

// Whether every deadlocked rank was blocked in the same call at both checks.
bool same_calls(const Verdict& first, const Verdict& second) {
  for (const deadlock::Rank rank : second.decision.deadlocked) {
    const auto a = first.replies.find(rank);
    const auto b = second.replies.find(rank);
    if (a == first.replies.end() || b == second.replies.end() ||
        a->second.generation != b->second.generation || a->second.state != b->second.state) {
      return false;
    }
  }
  return true;
}

// Whether every message that the ranks a deadlocked rank waits for have sent it has arrived,
// and no deadlocked rank's blocking send is held by a receive its receiver has posted: asks
// them all once more for their stamp counts. A collective's members exchange no stamps. A held
// send ends once MPI matches it, which needs no more than the receiver's polling (a rank in
// MPI_Ssend to a rank in MPI_Barrier that had posted the receive was reported deadlocked when
// MPI had not matched it within the grace, under load at a 10 ms timeout).
bool nothing_in_flight(Monitor& monitor, ControlChannel& control, const Verdict& verdict) {
  StampProtocol& stamps = control.stamps();
  const std::vector<deadlock::Rank>& deadlocked = verdict.decision.deadlocked;
  std::set<int> involved(deadlocked.begin(), deadlocked.end());
  for (const deadlock::Rank rank : deadlocked) {
    const deadlock::ProcessState& state = verdict.replies.at(rank).state;
    involved.insert(state.waits_on.begin(), state.waits_on.end());
  }
  const int self = monitor.world_rank();
  const std::vector<int> interest(involved.begin(), involved.end());
  std::vector<int> asked;
  std::copy_if(interest.begin(), interest.end(), std::back_inserter(asked),
               [&](int rank) { return rank != self; });
  const std::vector<StateReply> replies =
      control.request_states(asked, interest, ControlChannel::Counts::Unclaimed);
  stamps.drain();
  const auto position = [&](int rank) {
    return static_cast<std::size_t>(std::find(interest.begin(), interest.end(), rank) -
                                    interest.begin());
  };
  // The last exchange's reply of `of` (not this rank), or nullptr: no answer, or it moved on.
  const auto current = [&](int of) -> const StateReply* {
    const std::size_t i =
        static_cast<std::size_t>(std::find(asked.begin(), asked.end(), of) - asked.begin());
    const StateReply& reply = replies[i];
    const auto before = verdict.replies.find(of);
    return reply.answered && before != verdict.replies.end() &&
                   reply.generation == before->second.generation
               ? &reply
               : nullptr;
  };
  // Stamps `of` has sent `other` (`sent`), or received from it; nullopt if unknown.
  const auto counts = [&](int of, int other, bool sent) -> std::optional<std::uint64_t> {
    if (of == self) {
      return sent ? stamps.counts().sent_to(other) : stamps.counts().received_from(other);
    }
    const StateReply* reply = current(of);
    const std::vector<std::uint64_t>* counted = reply == nullptr ? nullptr
                                                : sent           ? &reply->sent_to
                                                                 : &reply->received_from;
    if (counted == nullptr || position(other) >= counted->size()) {
      return std::nullopt; // no answer, or one without counts (an answerer's: RunningAnswers)
    }
    return (*counted)[position(other)];
  };
  // Stamps from `from` that `of` holds unclaimed by a posted receive; nullopt if unknown.
  const auto unclaimed = [&](int of, int from) -> std::optional<std::uint64_t> {
    if (of == self) {
      std::vector<std::uint64_t> mine(static_cast<std::size_t>(monitor.world_size()));
      stamps.count_unclaimed(mine);
      return mine[static_cast<std::size_t>(from)];
    }
    const StateReply* reply = current(of);
    if (reply == nullptr || position(from) >= reply->unclaimed_from.size()) {
      return std::nullopt;
    }
    return reply->unclaimed_from[position(from)];
  };
  for (const deadlock::Rank rank : deadlocked) {
    const deadlock::ProcessState& state = verdict.replies.at(rank).state;
    if (state.collective) {
      continue;
    }
    for (const int partner : state.waits_on) {
      const auto sent = counts(partner, rank, true);
      const auto received = counts(rank, partner, false);
      if (!sent || !received || *sent != *received) {
        return false;
      }
    }
    if (is_blocking_send(verdict.replies.at(rank).place.function) && state.waits_on.size() == 1) {
      const int receiver = state.waits_on.front();
      const auto sent = counts(rank, receiver, true);
      const auto received = counts(receiver, rank, false);
      const auto waiting = unclaimed(receiver, rank);
      if (!sent || !received || !waiting || *received < *sent || *waiting == 0) {
        return false; // unknown, its stamp still in flight, or its send held by a posted receive
      }
    }
  }
  return true;
}

} // namespace

DeadlockDetector::DeadlockDetector(Monitor& monitor, ControlChannel& control,
                                   const BlockedCall& call, std::uint64_t start_rt)
    : monitor_(monitor), control_(control), stamps_(control.stamps()), call_(call),
      period_ns_(monitor.config().deadlock_timeout_ms * 1'000'000) {
  next_check_rt_ = start_rt + period_ns_;
}

void DeadlockDetector::check() {
  const std::uint64_t timeout_ns = monitor_.config().deadlock_timeout_ms * 1'000'000;
  period_ns_ = std::min(2 * period_ns_, 8 * timeout_ns);
  const Verdict first = decide_now(monitor_, control_);
  next_check_rt_ = vclock::Moment::now(monitor_.clock()).rt + period_ns_;
  if (first.decision.outcome != deadlock::Outcome::Deadlock) {
    return;
  }
  // Confirm after a grace period, serving meanwhile; a message that arrives ends it.
  constexpr std::uint64_t kLeastGraceNs = 50'000'000;
  const std::uint64_t grace_end =
      vclock::Moment::now(monitor_.clock()).rt + std::max(timeout_ns / 2, kLeastGraceNs);
  while (vclock::Moment::now(monitor_.clock()).rt < grace_end) {
    control_.serve();
    stamps_.drain();
    control_.progress_waiting(monitor_); // may satisfy the call
    if (call_.satisfied()) {
      return;
    }
    sched_yield();
  }
  const Verdict second = decide_now(monitor_, control_);
  if (second.decision.outcome != deadlock::Outcome::Deadlock ||
      second.decision.deadlocked != first.decision.deadlocked ||
      second.decision.deadlocked.empty() ||
      second.decision.deadlocked.front() != monitor_.world_rank() || !same_calls(first, second) ||
      !nothing_in_flight(monitor_, control_, second) || call_.satisfied()) {
    return; // moved on, not proven, or another rank of the deadlock reports it
  }
  const deadlock::Decision& d = second.decision;
  std::string report = d.deadlocked.size() == 1
                           ? "vcmon: deadlock: rank " + join(d.deadlocked, "") +
                                 " waits and nothing can end its wait\n"
                           : "vcmon: deadlock: ranks " + join(d.deadlocked, ", ") +
                                 " wait for each other and nothing can end their waits\n";
  for (const deadlock::Rank rank : d.deadlocked) {
    const StateReply& reply = second.replies.at(rank);
    report += "vcmon:   rank " + std::to_string(rank) + " waits in " +
              describe_call(monitor_, reply.place.function, reply.place.site);
    if (!reply.state.waits_on.empty()) {
      report += " (for rank " + join(reply.state.waits_on, ", ") + ")";
    }
    report += "\n";
  }
  if (!d.cycle.empty()) {
    report += "vcmon:   cycle: " + join(d.cycle, " -> ") + " -> " +
              std::to_string(d.cycle.front()) + "\n";
  }
  log_text(report);
  monitor_.on_abort("deadlock of ranks " + join(d.deadlocked, ", "));
  PMPI_Abort(MPI_COMM_WORLD, 3);
}

} // namespace vcmon::runtime::mpi
