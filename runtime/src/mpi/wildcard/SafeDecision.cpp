#include "mpi/wildcard/SafeDecision.hpp"

#include "mpi/clock/Moment.hpp"
#include "mpi/control/ControlStateExchange.hpp"
#include "mpi/stamps/SenderBounds.hpp"
#include "mpi/wildcard/WildcardTrace.hpp"

#include "vcmon/deadlock/CycleBreaker.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

std::optional<vclock::WildcardCandidate>
SafeDecision::decide(std::span<const vclock::WildcardCandidate> candidates,
                     std::span<const vclock::SenderBound> senders, const ReceivedSoFar& sight,
                     const BlockedCall& waiting, std::optional<std::uint64_t> horizon,
                     bool may_ask) {
  if (candidates.empty()) {
    return std::nullopt;
  }
  const auto within = [&](const vclock::WildcardCandidate& c) {
    return !horizon || c.arrival_ns <= *horizon;
  };
  const vclock::WildcardDecision rule = vclock::decide_wildcard(candidates, senders);
  if (rule.verdict == vclock::WildcardVerdict::Take ||
      (permitted_ && rule.earliest == permitted_)) {
    return within(*rule.earliest) ? rule.earliest : std::nullopt;
  }
  if (horizon) {
    // A later candidate cannot be safe while an earlier one is not; nothing within the
    // horizon is safe either when the earliest lies beyond it.
    if (!within(*rule.earliest)) {
      return std::nullopt;
    }
  }
  if (!may_ask) {
    return std::nullopt;
  }
  const std::uint64_t now_rt = Moment::now(monitor_.clock()).rt;
  if (monitor_.config().deadlock == DeadlockMode::NullMessage) {
    announcer_.announce(monitor_, waiting, now_rt);
    return std::nullopt;
  }
  if (now_rt < next_ask_rt_) {
    return std::nullopt;
  }
  std::optional<vclock::WildcardCandidate> taken = break_cycle(candidates, sight, waiting);
  next_ask_rt_ = Moment::now(monitor_.clock()).rt + backoff_ns_;
  backoff_ns_ = std::min<std::uint64_t>(backoff_ns_ * 2, 10'000'000);
  return taken && within(*taken) ? taken : std::nullopt;
}

void SafeDecision::record(unsigned function, const PendingStamp& stamp,
                          std::uint64_t first_candidate_rt, std::uint64_t decided_rt) const {
  LayerCounters& counters = monitor_.counters();
  ++counters.wildcard_decisions;
  counters.cycle_breaks += broke_cycle_ ? 1 : 0;
  counters.forced_decisions += forced_ ? 1 : 0;
  counters.safety_wait_ns += first_candidate_rt != 0 ? decided_rt - first_candidate_rt : 0;
  WildcardTrace::record(function, stamp.source, stamp.tag, stamp.stamp.send_vt_ns, broke_cycle_);
}

std::optional<vclock::WildcardCandidate>
SafeDecision::break_cycle(std::span<const vclock::WildcardCandidate> candidates,
                          const ReceivedSoFar& sight, const BlockedCall& waiting) {
  deadlock::UndecidedReceive receive;
  receive.self.rank = monitor_.world_rank();
  waiting.describe(receive.self, true);
  receive.self.present_arrival_ns.reset();
  receive.candidates.assign(candidates.begin(), candidates.end());
  receive.known_bounds = known_bounds(sight);
  ControlStateExchange exchange(monitor_, shadow_, sight);
  const deadlock::Decision decision = deadlock::CycleBreaker().decide(receive, exchange);
  for (const auto& [rank, bound] : decision.learned_bounds) {
    SenderBounds::raise(rank, bound);
  }
  if (decision.outcome != deadlock::Outcome::Take) {
    return std::nullopt;
  }
  forced_ = forced_ || exchange.assumed_stuck();
  permitted_ = decision.taken;
  broke_cycle_ = broke_cycle_ || decision.broke_cycle;
  return decision.taken;
}

} // namespace vcmon::runtime::mpi
