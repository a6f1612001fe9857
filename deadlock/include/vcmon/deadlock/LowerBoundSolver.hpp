// Lower bounds on the virtual time of every process's next send (docs/deadlock.md, "Lower bounds"):
// running, its clock; OR-wait, the earliest of what it waits for; AND-wait, the latest; never, for
// a finished process or one whose wait nothing can end.
#pragma once

#include "vcmon/deadlock/WaitGraph.hpp"

#include <cstdint>
#include <map>
#include <optional>

namespace vcmon::deadlock {

// A bound fixed from outside instead of derived from the process's wait: the decider's, when
// it assumes it resumes with the candidate it is deciding on.
struct PinnedBound {
  Rank rank = 0;
  std::uint64_t earliest_send_ns = 0;
};

using LowerBounds = std::map<Rank, std::uint64_t>; // kNever: the process never sends again

class LowerBoundSolver {
public:
  explicit LowerBoundSolver(const WaitGraph& graph) : graph_(graph) {}

  // The greatest fixpoint of the bound equations, reached by iterating down from kNever:
  // processes waiting on each other with nothing to start them keep kNever, because none of
  // them can move first. Terminates because every bound is one of the finitely many clocks
  // and arrivals of the states (or the pinned value), and bounds only decrease.
  LowerBounds solve(std::optional<PinnedBound> pinned = std::nullopt) const;

private:
  const WaitGraph& graph_;
};

} // namespace vcmon::deadlock
