// Short constructors for the process states the deadlock tests describe scenarios with.
#pragma once

#include "vcmon/deadlock/ProcessState.hpp"

#include <utility>
#include <vector>

namespace vcmon::deadlock::testing {

inline ProcessState running(Rank rank, std::uint64_t clock, bool can_send = true) {
  return {rank, Activity::Running, clock, {}, std::nullopt, can_send};
}
inline ProcessState blocked_any(Rank rank, std::uint64_t clock, std::vector<Rank> on,
                                bool can_send = true) {
  return {rank, Activity::BlockedAny, clock, std::move(on), std::nullopt, can_send};
}
inline ProcessState blocked_all(Rank rank, std::uint64_t clock, std::vector<Rank> on,
                                bool can_send = true) {
  return {rank, Activity::BlockedAll, clock, std::move(on), std::nullopt, can_send};
}
inline ProcessState finished(Rank rank) {
  return {rank, Activity::Finished, 0, {}, std::nullopt, false};
}

} // namespace vcmon::deadlock::testing
