// How the deadlock module talks to other ranks: the runtime implements this over its control
// channel, one exchange per undecided receive, so the module itself never touches MPI.
#pragma once

#include "vcmon/deadlock/ProcessState.hpp"

#include <map>
#include <span>
#include <vector>

namespace vcmon::deadlock {

class StateExchange {
public:
  virtual ~StateExchange() = default;

  // The current state of each rank of `ranks`, in the same order: one control request to
  // and one reply from each. A blocked rank answers from the loop it waits in. The
  // implementation knows the receive it was made for and fills `can_send_to_decider`.
  virtual std::vector<ProcessState> request_states(std::span<const Rank> ranks) = 0;

  // After the last round, with every state gathered (by rank): a rank that reported waiting
  // for another may already have a message from it on its way, sent after it answered, or
  // before but not yet filed; then it resumes at that message, not at its sender's next send.
  // An implementation that can tell (from counts in the replies) makes such a rank Running at
  // its clock, which is always safe. The default knows nothing more.
  virtual void reconcile(std::map<Rank, ProcessState>& states) { (void)states; }
};

} // namespace vcmon::deadlock
