// What one process reports about itself when a decider asks (docs/deadlock.md, "The model"):
// whether it runs, waits or has finished, its virtual time, and whom it waits for.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace vcmon::deadlock {

using Rank = int;

// A virtual time no process reaches: the lower bound of a process that never sends again.
inline constexpr std::uint64_t kNever = UINT64_MAX;

enum class Activity {
  Running,    // computing; it may send at any virtual time from its clock on
  BlockedAny, // OR-wait: any one of `waits_on` sending ends it (a wildcard receive, Waitany)
  BlockedAll, // AND-wait: every one of `waits_on` must send (Waitall, a collective)
  Finished,   // left MPI for good: it never sends again
};

struct ProcessState {
  Rank rank = 0;
  Activity activity = Activity::Running;
  // Running: its virtual clock now. Blocked: the virtual time it blocked at; for an AND-wait,
  // raised to the latest completion of the parts already done.
  std::uint64_t clock_ns = 0;
  // Blocked: the ranks whose next send can end (OR) or is still needed for (AND) the wait,
  // already reduced to the parts not yet satisfied.
  std::vector<Rank> waits_on;
  // BlockedAny only: the earliest virtual arrival of a message already there that ends the
  // wait (a wildcard receive that is itself waiting for safety).
  std::optional<std::uint64_t> present_arrival_ns;
  // Whether it can send a message matching the decider's receive (member of its
  // communicator, a tag that can match). Only an OR-wait drops senders that cannot: an
  // AND-wait needs every one of them.
  bool can_send_to_decider = false;
  // BlockedAll in a collective: the operation instance (communicator and its collective
  // sequence number). Members inside the same instance do not wait for each other, only
  // for those still outside, so the runtime may list every member in `waits_on`.
  std::optional<std::uint64_t> collective;

  bool blocked() const {
    return activity == Activity::BlockedAny || activity == Activity::BlockedAll;
  }
  bool operator==(const ProcessState&) const = default;
};

} // namespace vcmon::deadlock
