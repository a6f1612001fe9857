#include "mpi/wildcard/DecisionAttempts.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

std::optional<vclock::WildcardCandidate>
DecisionAttempts::attempt(std::span<const vclock::WildcardCandidate> candidates,
                          std::span<const vclock::SenderBound> senders,
                          std::optional<std::uint64_t> horizon, bool may_ask, Help& help) {
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
  // A later candidate cannot be safe while an earlier one is not; nothing within the horizon is
  // safe either when the earliest lies beyond it.
  if (!within(*rule.earliest) || !may_ask) {
    return std::nullopt;
  }
  const std::uint64_t now_rt = help.now_rt();
  if (help.null_messages()) {
    help.announce_bound(now_rt);
    return std::nullopt;
  }
  if (now_rt < next_ask_rt_) {
    return std::nullopt;
  }
  const std::optional<vclock::WildcardCandidate> taken = help.break_cycle(candidates);
  if (taken) {
    permitted_ = taken;
  }
  next_ask_rt_ = help.now_rt() + backoff_ns_;
  backoff_ns_ = std::min(backoff_ns_ * 2, kLastBackoffNs);
  return taken && within(*taken) ? taken : std::nullopt;
}

} // namespace vcmon::runtime::mpi
