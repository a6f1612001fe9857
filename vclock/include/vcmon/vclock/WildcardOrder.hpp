// The rule that orders nondeterministic events by virtual time (docs/deadlock.md, "The rule"): a
// wildcard receive or probe takes the matching message with the earliest virtual arrival (ties by
// the lower source rank), but only once no other process that could still send a matching message
// can make it arrive earlier. The same rule orders the completions Waitany, Testany, Waitsome and
// Testsome report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace vcmon::vclock {

// A matching message already at the receiver, or a request that has completed.
struct WildcardCandidate {
  int source = 0;               // sender rank
  std::uint64_t arrival_ns = 0; // virtual arrival (stamp + transfer), or virtual completion
  std::size_t slot = 0;         // the caller's index (request index); breaks ties of one source
  bool operator==(const WildcardCandidate&) const = default;
};

// A process that could still send a matching message but has none at the receiver yet, with a
// lower bound on the virtual time of its next send (UINT64_MAX: it never sends again). A send
// time bounds the arrival from below because transfers take no negative time.
struct SenderBound {
  int source = 0;
  std::uint64_t earliest_send_ns = 0;
  bool operator==(const SenderBound&) const = default;
};

enum class WildcardVerdict {
  Take,             // `earliest` is safe: take it
  Wait,             // `blocking_sources` could still send something that arrives first
  NothingCanArrive, // no candidate and no process that could send one
};

struct WildcardDecision {
  WildcardVerdict verdict = WildcardVerdict::Wait;
  std::optional<WildcardCandidate> earliest; // what the rule takes once safe
  std::vector<int> blocking_sources;         // sorted; empty unless verdict is Wait
  bool operator==(const WildcardDecision&) const = default;
};

// True when `a` is taken before `b`: earlier arrival, then lower source, then lower slot.
bool taken_before(const WildcardCandidate& a, const WildcardCandidate& b);

// True when `sender` could still produce a message the rule would take before `candidate`:
// an earlier arrival, or an equal one from a lower rank.
bool could_precede(const SenderBound& sender, const WildcardCandidate& candidate);

// Decides on the earliest candidate. Bounds of sources that have a candidate are ignored: a
// later message from the same source cannot overtake the one already there (MPI's
// non-overtaking rule). Processes that cannot send a matching message must not be passed.
WildcardDecision decide_wildcard(std::span<const WildcardCandidate> candidates,
                                 std::span<const SenderBound> senders);

// The candidates the rule can report now, in order, for Waitsome/Testsome (and Testany,
// Iprobe with the first only): every candidate up to the first one that is not yet safe,
// among those with arrival_ns <= horizon_ns. Waitsome passes max(post VT, first arrival);
// Test-style calls pass the caller's current virtual time, so polling loops see a message
// only once its virtual arrival has passed.
std::vector<WildcardCandidate> safe_in_order(std::span<const WildcardCandidate> candidates,
                                             std::span<const SenderBound> senders,
                                             std::uint64_t horizon_ns);

} // namespace vcmon::vclock
