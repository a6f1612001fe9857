#include "mpi/wildcard/SafeDecision.hpp"

#include "mpi/control/ControlStateExchange.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "vcmon/deadlock/CycleBreaker.hpp"

namespace vcmon::runtime::mpi {

// What the attempts reach through this process: its clock, the null-message announcer, and
// cycle breaking over the control channel, for one call's sight and wait.
class __attribute__((visibility("hidden"))) SafeDecisionHelp final : public DecisionAttempts::Help {
public:
  SafeDecisionHelp(SafeDecision& decision, const ReceivedSoFar& sight, const BlockedCall& waiting)
      : decision_(decision), sight_(sight), waiting_(waiting) {}

  std::uint64_t now_rt() override { return vclock::Moment::now(decision_.monitor_.clock()).rt; }
  bool null_messages() override {
    return decision_.monitor_.config().deadlock == DeadlockMode::NullMessage;
  }
  void announce_bound(std::uint64_t now_rt) override {
    decision_.announcer_.announce(decision_.monitor_, decision_.control_, waiting_, now_rt);
  }
  std::optional<vclock::WildcardCandidate>
  break_cycle(std::span<const vclock::WildcardCandidate> candidates) override {
    return decision_.break_cycle(candidates, sight_, waiting_);
  }

private:
  SafeDecision& decision_;
  const ReceivedSoFar& sight_;
  const BlockedCall& waiting_;
};

std::optional<vclock::WildcardCandidate>
SafeDecision::decide(std::span<const vclock::WildcardCandidate> candidates,
                     std::span<const vclock::SenderBound> senders, const ReceivedSoFar& sight,
                     const BlockedCall& waiting, std::optional<std::uint64_t> horizon,
                     bool may_ask) {
  SafeDecisionHelp help(*this, sight, waiting);
  return attempts_.attempt(candidates, senders, horizon, may_ask, help);
}

void SafeDecision::record(unsigned function, const PendingStamp& stamp,
                          std::uint64_t first_candidate_rt, std::uint64_t decided_rt) const {
  LayerCounters& counters = monitor_.counters();
  ++counters.wildcard_decisions;
  counters.cycle_breaks += broke_cycle_ ? 1 : 0;
  counters.forced_decisions += forced_ ? 1 : 0;
  counters.safety_wait_ns += first_candidate_rt != 0 ? decided_rt - first_candidate_rt : 0;
  trace_.record(function, stamp.source, stamp.tag, stamp.stamp.send_vt_ns, broke_cycle_);
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
  ControlStateExchange exchange(monitor_, control_, shadow_, sight);
  const deadlock::Decision decision = deadlock::CycleBreaker().decide(receive, exchange);
  for (const auto& [rank, bound] : decision.learned_bounds) {
    stamps_.bounds().raise(rank, bound);
  }
  if (decision.outcome != deadlock::Outcome::Take) {
    return std::nullopt;
  }
  forced_ = forced_ || exchange.assumed_stuck();
  broke_cycle_ = broke_cycle_ || decision.broke_cycle;
  return decision.taken;
}

} // namespace vcmon::runtime::mpi
