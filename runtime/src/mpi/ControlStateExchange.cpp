#include "mpi/ControlStateExchange.hpp"

#include "mpi/ControlChannel.hpp"
#include "mpi/SenderBounds.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

std::vector<deadlock::ProcessState>
ControlStateExchange::request_states(std::span<const deadlock::Rank> ranks) {
  std::vector<WaitPlace> places;
  std::vector<deadlock::ProcessState> states =
      ControlChannel::request_states(monitor_, ranks, places);
  for (std::size_t i = 0; i < states.size(); ++i) {
    deadlock::ProcessState& state = states[i];
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
