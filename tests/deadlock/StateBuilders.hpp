// Short constructors for the process states the deadlock tests describe scenarios with.
#pragma once

#include "vcmon/deadlock/ProcessState.hpp"

#include <utility>
#include <vector>

namespace vcmon::deadlock::testing {

inline ProcessState state_of(Rank rank, Activity activity, std::uint64_t clock,
                             std::vector<Rank> on, bool can_send) {
  ProcessState state;
  state.rank = rank;
  state.activity = activity;
  state.clock_ns = clock;
  state.waits_on = std::move(on);
  state.can_send_to_decider = can_send;
  return state;
}
inline ProcessState running(Rank rank, std::uint64_t clock, bool can_send = true) {
  return state_of(rank, Activity::Running, clock, {}, can_send);
}
inline ProcessState blocked_any(Rank rank, std::uint64_t clock, std::vector<Rank> on,
                                bool can_send = true) {
  return state_of(rank, Activity::BlockedAny, clock, std::move(on), can_send);
}
inline ProcessState blocked_all(Rank rank, std::uint64_t clock, std::vector<Rank> on,
                                bool can_send = true) {
  return state_of(rank, Activity::BlockedAll, clock, std::move(on), can_send);
}
// Inside collective operation `instance`, waiting for the members in `members`.
inline ProcessState in_collective(Rank rank, std::uint64_t clock, std::vector<Rank> members,
                                  std::uint64_t instance) {
  ProcessState state = blocked_all(rank, clock, std::move(members));
  state.collective = instance;
  return state;
}
inline ProcessState finished(Rank rank) {
  return state_of(rank, Activity::Finished, 0, {}, false);
}

} // namespace vcmon::deadlock::testing
