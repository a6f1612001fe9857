// The brute-force reference the deadlock decisions are checked against: simulate every
// process forward in virtual time as eagerly as its state allows. A running process sends at
// its clock; a blocked one resumes as soon as what it waits for has sent (any one for an
// OR-wait, all for an AND-wait) and sends at once to everyone; a finished one never sends.
// Whatever any real continuation of the processes can do, the eager one does no later.
#pragma once

#include "vcmon/deadlock/ProcessState.hpp"
#include "vcmon/vclock/WildcardOrder.hpp"

#include <map>
#include <vector>

namespace vcmon::deadlock::testing {

enum class DeciderResumes {
  WithCandidate, // holds until its earliest candidate arrives, after every other event then
  AtOnce,        // could resume now: what naive clock comparisons assume
  OnItsWait,     // no candidate: an ordinary blocked process
};

struct EagerOutcome {
  std::map<Rank, std::uint64_t> sends; // first send of every process that ever sends
  // The decider's senders (those that can match, without a candidate there) that deliver
  // before its earliest candidate is taken, or, without candidates, ever.
  std::vector<Rank> preceding;
  // Blocked processes that never resume, reachable from the decider through such processes,
  // and whether they wait on each other in a cycle.
  std::vector<Rank> never_resume;
  bool never_resume_has_cycle = false;
};

// `everyone` holds the decider's own state too; its `waits_on` lists its senders, of which
// an OR-wait drops those whose state says they cannot match.
EagerOutcome simulate_eagerly(const std::vector<ProcessState>& everyone, Rank decider,
                              const std::vector<vclock::WildcardCandidate>& candidates,
                              DeciderResumes resumes);

} // namespace vcmon::deadlock::testing
