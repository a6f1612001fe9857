#include "mpi/ControlStateExchange.hpp"

#include "mpi/ControlChannel.hpp"
#include "mpi/SenderBounds.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

std::vector<deadlock::ProcessState>
ControlStateExchange::request_states(std::span<const deadlock::Rank> ranks) {
  std::vector<WaitPlace> places;
  std::vector<std::uint64_t> stamps_sent;
  std::vector<deadlock::ProcessState> states = ControlChannel::request_states(
      monitor_, ranks, shadow_ != nullptr ? shadow_->id : 0, places, stamps_sent);
  for (std::size_t i = 0; i < states.size(); ++i) {
    deadlock::ProcessState& state = states[i];
    const int peer = shadow_ != nullptr ? shadow_->peer_of(state.rank) : -1;
    if (peer >= 0 &&
        shadow_->received_from[static_cast<std::size_t>(peer)].load() < stamps_sent[i]) {
      // A message it sent this rank is still in flight, stamped earlier than its clock now:
      // its clock bounds nothing yet. Ask again once the stamp has arrived.
      const deadlock::Rank rank = state.rank;
      state = deadlock::ProcessState{};
      state.rank = rank;
      state.clock_ns = SenderBounds::of(rank);
    }
    state.can_send_to_decider =
        shadow_ == nullptr || std::find(shadow_->world_rank.begin(), shadow_->world_rank.end(),
                                        state.rank) != shadow_->world_rank.end();
    places_[state.rank] = places[i];
    states_[state.rank] = state;
  }
  return states;
}

std::map<deadlock::Rank, std::uint64_t> known_bounds(const Monitor& monitor) {
  std::map<deadlock::Rank, std::uint64_t> bounds;
  for (int rank = 0; rank < monitor.world_size(); ++rank) {
    if (const std::uint64_t bound = SenderBounds::of(rank); bound != 0) {
      bounds[rank] = bound;
    }
  }
  return bounds;
}

} // namespace vcmon::runtime::mpi
