#include "vcmon/deadlock/SnapshotStateExchange.hpp"

#include <stdexcept>
#include <string>

namespace vcmon::deadlock {

SnapshotStateExchange::SnapshotStateExchange(const std::vector<ProcessState>& states) {
  for (const ProcessState& state : states) {
    if (!states_.emplace(state.rank, state).second) {
      throw std::invalid_argument("SnapshotStateExchange: rank " + std::to_string(state.rank) +
                                  " given twice");
    }
  }
}

std::vector<ProcessState> SnapshotStateExchange::request_states(std::span<const Rank> ranks) {
  std::vector<ProcessState> replies;
  replies.reserve(ranks.size());
  for (Rank rank : ranks) {
    const auto it = states_.find(rank);
    if (it == states_.end()) {
      throw std::out_of_range("SnapshotStateExchange: no state for rank " + std::to_string(rank));
    }
    replies.push_back(it->second);
  }
  ranks_queried_ += ranks.size();
  return replies;
}

} // namespace vcmon::deadlock
