// How the deadlock module talks to other ranks: the runtime implements this over its control
// channel, one exchange per undecided receive, so the module itself never touches MPI.
#pragma once

#include "vcmon/deadlock/ProcessState.hpp"

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
};

} // namespace vcmon::deadlock
