#include "mpi/control/WaitersOnThisRank.hpp"

namespace vcmon::runtime::mpi {

bool WaitersOnThisRank::waits_for_this_rank_alone(const StateReply& reply,
                                                  std::uint64_t sent_to_rank) const {
  const deadlock::ProcessState& state = reply.state;
  const auto self = static_cast<std::size_t>(self_);
  return reply.answered && reply.place.message_wait && state.blocked() && !state.collective &&
         !state.present_arrival_ns && state.waits_on == std::vector<deadlock::Rank>{self_} &&
         self < reply.received_from.size() && reply.received_from[self] == sent_to_rank;
}

void WaitersOnThisRank::remember(int rank, const StateReply& reply, std::uint64_t sent_to_rank) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= replies_.size()) {
    return;
  }
  const std::lock_guard lock(mutex_);
  std::optional<StateReply>& kept = replies_[static_cast<std::size_t>(rank)];
  if (waits_for_this_rank_alone(reply, sent_to_rank)) {
    kept = reply;
  } else {
    kept.reset();
  }
}

std::optional<StateReply> WaitersOnThisRank::recall(int rank, std::uint64_t sent_to_rank) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= replies_.size()) {
    return std::nullopt;
  }
  const std::lock_guard lock(mutex_);
  std::optional<StateReply>& kept = replies_[static_cast<std::size_t>(rank)];
  if (kept && !waits_for_this_rank_alone(*kept, sent_to_rank)) {
    kept.reset(); // this rank has sent it a message since: it may be running
  }
  return kept;
}

} // namespace vcmon::runtime::mpi
