#include "vcmon/vclock/WildcardOrder.hpp"

#include <algorithm>
#include <tuple>

namespace vcmon::vclock {

namespace {

std::vector<WildcardCandidate> sorted(std::span<const WildcardCandidate> candidates) {
  std::vector<WildcardCandidate> order(candidates.begin(), candidates.end());
  std::sort(order.begin(), order.end(), taken_before);
  return order;
}

bool has_candidate(std::span<const WildcardCandidate> candidates, int source) {
  return std::any_of(candidates.begin(), candidates.end(),
                     [source](const WildcardCandidate& c) { return c.source == source; });
}

void sort_unique(std::vector<int>& ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
}

// Sorted, unique sources of `senders` that could precede `candidate`.
std::vector<int> blockers_of(const WildcardCandidate& candidate,
                             std::span<const WildcardCandidate> candidates,
                             std::span<const SenderBound> senders) {
  std::vector<int> blocking;
  for (const SenderBound& sender : senders) {
    if (!has_candidate(candidates, sender.source) && could_precede(sender, candidate)) {
      blocking.push_back(sender.source);
    }
  }
  sort_unique(blocking);
  return blocking;
}

} // namespace

bool taken_before(const WildcardCandidate& a, const WildcardCandidate& b) {
  return std::tie(a.arrival_ns, a.source, a.slot) < std::tie(b.arrival_ns, b.source, b.slot);
}

bool could_precede(const SenderBound& sender, const WildcardCandidate& candidate) {
  return std::tie(sender.earliest_send_ns, sender.source) <
         std::tie(candidate.arrival_ns, candidate.source);
}

WildcardDecision decide_wildcard(std::span<const WildcardCandidate> candidates,
                                 std::span<const SenderBound> senders) {
  WildcardDecision decision;
  if (candidates.empty()) {
    for (const SenderBound& sender : senders) {
      if (sender.earliest_send_ns != UINT64_MAX) {
        decision.blocking_sources.push_back(sender.source);
      }
    }
    sort_unique(decision.blocking_sources);
    decision.verdict = decision.blocking_sources.empty() ? WildcardVerdict::NothingCanArrive
                                                         : WildcardVerdict::Wait;
    return decision;
  }
  decision.earliest = *std::min_element(candidates.begin(), candidates.end(), taken_before);
  decision.blocking_sources = blockers_of(*decision.earliest, candidates, senders);
  decision.verdict =
      decision.blocking_sources.empty() ? WildcardVerdict::Take : WildcardVerdict::Wait;
  return decision;
}

std::vector<WildcardCandidate> safe_in_order(std::span<const WildcardCandidate> candidates,
                                             std::span<const SenderBound> senders,
                                             std::uint64_t horizon_ns) {
  std::vector<WildcardCandidate> safe;
  for (const WildcardCandidate& candidate : sorted(candidates)) {
    if (candidate.arrival_ns > horizon_ns || !blockers_of(candidate, candidates, senders).empty()) {
      break;
    }
    safe.push_back(candidate);
  }
  return safe;
}

} // namespace vcmon::vclock
