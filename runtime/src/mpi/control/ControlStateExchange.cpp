#include "mpi/control/ControlStateExchange.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

ControlStateExchange::ControlStateExchange(Monitor& monitor, ControlChannel& control,
                                           const Shadow& shadow, const ReceivedSoFar& sight)
    : monitor_(monitor), control_(control), stamps_(control.stamps()), shadow_(&shadow),
      sight_(&sight) {
  if (monitor.world_size() <= kCountedRanks) {
    for (int rank = 0; rank < monitor.world_size(); ++rank) {
      counted_.push_back(rank);
    }
  }
}

std::uint64_t ControlStateExchange::known_bound(int rank) const {
  return sight_ != nullptr ? sight_->bound_of(rank) : stamps_.bounds().of(rank);
}

std::vector<StateReply> ControlStateExchange::ask_or_recall(std::span<const deadlock::Rank> ranks) {
  WaitersOnThisRank* waiters =
      sight_ != nullptr && !counted_.empty() ? &control_.waiters() : nullptr;
  if (waiters == nullptr) {
    return control_.request_states(ranks, counted_);
  }
  std::vector<StateReply> replies(ranks.size());
  std::vector<deadlock::Rank> asked;
  std::vector<std::size_t> asked_at;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (std::optional<StateReply> kept =
            waiters->recall(ranks[i], stamps_.counts().sent_to(ranks[i]))) {
      replies[i] = std::move(*kept);
    } else {
      asked.push_back(ranks[i]);
      asked_at.push_back(i);
    }
  }
  if (asked.empty()) {
    return replies;
  }
  std::vector<StateReply> answers = control_.request_states(asked, counted_);
  for (std::size_t k = 0; k < answers.size(); ++k) {
    waiters->remember(asked[k], answers[k], stamps_.counts().sent_to(asked[k]));
    replies[asked_at[k]] = std::move(answers[k]);
  }
  return replies;
}

std::vector<deadlock::ProcessState>
ControlStateExchange::request_states(std::span<const deadlock::Rank> ranks) {
  const std::vector<StateReply> replies = ask_or_recall(ranks);
  std::vector<deadlock::ProcessState> states(replies.size());
  for (std::size_t i = 0; i < replies.size(); ++i) {
    const StateReply& reply = replies[i];
    deadlock::ProcessState& state = states[i];
    const bool in_flight =
        reply.answered && sight_ != nullptr && sight_->stamps_from(ranks[i]) < reply.stamps_sent;
    if (reply.answered && !in_flight) {
      state = reply.state;
      if (collective_passed(state)) {
        // It waits in a collective this process has seen every member enter: it returns
        // without anyone's next send (taking the decider for its waker let a decider take a
        // message that rank's next send preceded).
        state.activity = deadlock::Activity::Running;
        state.waits_on.clear();
        state.collective.reset();
      }
    } else if (const std::optional<int> waits_for = stuck_waiting_for(reply, ranks[i])) {
      state.rank = ranks[i];
      state.activity = deadlock::Activity::BlockedAny;
      state.clock_ns = known_bound(ranks[i]);
      state.waits_on = {*waits_for};
      assumed_stuck_ = true;
    } else {
      // No answer (it computes, or waits inside a call the layer does not poll), or a message
      // it sent this rank was not among the decider's candidates, stamped earlier than its
      // clock now: only its known bound holds. Ask again later.
      state.rank = ranks[i];
      state.clock_ns = known_bound(ranks[i]);
    }
    state.can_send_to_decider =
        shadow_ == nullptr || std::find(shadow_->world_rank.begin(), shadow_->world_rank.end(),
                                        state.rank) != shadow_->world_rank.end();
    if (reply.answered) {
      replies_[state.rank] = reply;
    }
  }
  return states;
}

bool ControlStateExchange::collective_passed(const deadlock::ProcessState& state) const {
  if (!state.collective || state.activity != deadlock::Activity::BlockedAll) {
    return false;
  }
  const std::uint64_t id = *state.collective >> 32;
  const std::uint64_t sequence = *state.collective & 0xffff'ffffu;
  const StampProtocol::Hold hold(stamps_); // shadows are looked up by id under it
  const Shadow* shadow = stamps_.shadows().find_by_id(id);
  return shadow != nullptr && sequence < shadow->entered_by_all.load(std::memory_order_relaxed);
}

std::optional<std::uint64_t> ControlStateExchange::sent(int from, int to) const {
  if (from == monitor_.world_rank()) {
    return stamps_.counts().sent_to(to);
  }
  const auto reply = replies_.find(from);
  if (reply == replies_.end() || reply->second.sent_to.size() != counted_.size() ||
      static_cast<std::size_t>(to) >= counted_.size()) {
    return std::nullopt;
  }
  return reply->second.sent_to[static_cast<std::size_t>(to)];
}

void ControlStateExchange::reconcile(std::map<deadlock::Rank, deadlock::ProcessState>& states) {
  if (counted_.empty()) {
    return;
  }
  for (auto& [rank, state] : states) {
    const auto own = replies_.find(rank);
    if (!state.blocked() || state.collective || own == replies_.end() ||
        own->second.received_from.size() != counted_.size()) {
      continue; // running, assumed, inside a collective (no stamps), or no counts
    }
    for (const int waker : state.waits_on) {
      const std::optional<std::uint64_t> sent_by_waker = sent(waker, rank);
      if (sent_by_waker && static_cast<std::size_t>(waker) < counted_.size() &&
          *sent_by_waker > own->second.received_from[static_cast<std::size_t>(waker)]) {
        state.activity = deadlock::Activity::Running;
        state.waits_on.clear();
        state.present_arrival_ns.reset();
        break;
      }
    }
  }
}

std::optional<int> ControlStateExchange::stuck_waiting_for(const StateReply& reply,
                                                           int rank) const {
  if (reply.answered || sight_ == nullptr) {
    return std::nullopt;
  }
  const std::optional<UnpolledState> stuck = ControlChannel::stuck_unpolled(monitor_, rank);
  if (!stuck) {
    return std::nullopt;
  }
  switch (stuck->wait) {
  case UnpolledWait::Others:
    return monitor_.world_rank();
  case UnpolledWait::Receiver:
    return stuck->receiver >= 0 ? std::optional<int>(stuck->receiver) : std::nullopt;
  case UnpolledWait::Completes:
    break;
  }
  return std::nullopt;
}

namespace {

template <typename BoundOf>
std::map<deadlock::Rank, std::uint64_t> nonzero_bounds(int world_size, BoundOf&& bound_of) {
  std::map<deadlock::Rank, std::uint64_t> bounds;
  for (int rank = 0; rank < world_size; ++rank) {
    if (const std::uint64_t bound = bound_of(rank); bound != 0) {
      bounds[rank] = bound;
    }
  }
  return bounds;
}

} // namespace

std::map<deadlock::Rank, std::uint64_t> known_bounds(const SenderBounds& bounds, int world_size) {
  return nonzero_bounds(world_size, [&](int rank) { return bounds.of(rank); });
}

std::map<deadlock::Rank, std::uint64_t> known_bounds(const ReceivedSoFar& sight) {
  return nonzero_bounds(sight.world_size(), [&](int rank) { return sight.bound_of(rank); });
}

} // namespace vcmon::runtime::mpi
