// Li & Zhang's decision for an undecided receive (docs/deadlock.md, "Cycle breaking"): ask the
// processes that could still send earlier, and those they wait for, for their states; build the
// WaitGraph; assume the decider resumes with its earliest candidate and compute everybody's lower
// bound. If the senders that looked earlier only wait, directly or through others, on the decider,
// the earliest available sender is permitted. With no candidate, a wait nothing can ever end is
// reported as the program's own deadlock, with its cycle.
#pragma once

#include "vcmon/deadlock/Decision.hpp"
#include "vcmon/deadlock/StateExchange.hpp"
#include "vcmon/deadlock/UndecidedReceive.hpp"

namespace vcmon::deadlock {

class CycleBreaker {
public:
  // Asks nothing when the known bounds already make the earliest candidate safe. Otherwise
  // queries in rounds: first the senders that block, then the not yet known ranks that the
  // blocked replies wait for, skipping ranks whose known bound is already past the candidate.
  Decision decide(const UndecidedReceive& receive, StateExchange& exchange) const;
};

} // namespace vcmon::deadlock
