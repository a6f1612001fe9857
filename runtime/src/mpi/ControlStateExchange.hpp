// The deadlock module's StateExchange over the control channel: one request to and one reply
// from each rank asked. `can_send_to_decider` is membership in the decider's communicator (any
// member may still send any tag); the wait places are kept for a deadlock report.
#pragma once

#include "mpi/BlockedCall.hpp"
#include "mpi/ShadowCommunicators.hpp"

#include "core/Monitor.hpp"

#include "vcmon/deadlock/StateExchange.hpp"

#include <map>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) ControlStateExchange final
    : public deadlock::StateExchange {
public:
  // `shadow`: the decider's communicator; nullptr: every rank counts as a possible sender.
  ControlStateExchange(Monitor& monitor, const Shadow* shadow)
      : monitor_(monitor), shadow_(shadow) {}

  std::vector<deadlock::ProcessState>
  request_states(std::span<const deadlock::Rank> ranks) override;

  // The replies so far and where each replying rank waits.
  const std::map<deadlock::Rank, deadlock::ProcessState>& states() const { return states_; }
  const std::map<deadlock::Rank, WaitPlace>& places() const { return places_; }

private:
  Monitor& monitor_;
  const Shadow* shadow_;
  std::map<deadlock::Rank, deadlock::ProcessState> states_;
  std::map<deadlock::Rank, WaitPlace> places_;
};

// The bounds this process holds for every rank (SenderBounds), as the deadlock module takes
// them.
std::map<deadlock::Rank, std::uint64_t> known_bounds(const Monitor& monitor);

} // namespace vcmon::runtime::mpi
