// What the decider knows locally when its nondeterministic event cannot be decided from what
// is at hand: its own wait, the candidates already there, and bounds it already holds.
#pragma once

#include "vcmon/deadlock/ProcessState.hpp"
#include "vcmon/vclock/WildcardOrder.hpp"

#include <cstdint>
#include <map>
#include <vector>

namespace vcmon::deadlock {

struct UndecidedReceive {
  // The decider's own state. A wildcard receive is BlockedAny on every rank that could send a
  // matching message; a specific receive BlockedAny on its source; Waitall or a collective
  // BlockedAll on the ranks still missing. `present_arrival_ns` is left empty: candidates
  // go below.
  ProcessState self;
  // Matching messages (or completed requests) already there; empty for a plain blocked call
  // that only asks whether it is deadlocked.
  std::vector<vclock::WildcardCandidate> candidates;
  // Lower bounds the decider already holds without asking: the send stamps of the last
  // message from each rank, bounds from earlier replies. A missing rank counts as 0.
  std::map<Rank, std::uint64_t> known_bounds;
};

// Whether `other` stays among the senders the decider waits on: an OR-wait (a wildcard)
// drops those that cannot send a matching message; an AND-wait needs all of them.
inline bool keeps_sender(const ProcessState& self, const ProcessState& other) {
  return self.activity != Activity::BlockedAny || other.can_send_to_decider;
}

} // namespace vcmon::deadlock
