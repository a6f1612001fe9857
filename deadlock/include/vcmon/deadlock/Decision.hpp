// The outcome of deciding an undecided receive, with what deciding it cost.
#pragma once

#include "vcmon/deadlock/ProcessState.hpp"
#include "vcmon/vclock/WildcardOrder.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace vcmon::deadlock {

enum class Outcome {
  Take,     // take `taken` now
  Wait,     // `blocking` may still send something earlier: ask again when they have moved
  Deadlock, // the program itself is deadlocked: nothing can ever end the decider's wait
};

struct Decision {
  Outcome outcome = Outcome::Wait;
  std::optional<vclock::WildcardCandidate> taken; // Take only
  std::vector<Rank> blocking;                     // Wait: sorted senders that may precede
  std::vector<Rank> cycle;      // Deadlock: ranks in wait order, each waiting for the next
  std::vector<Rank> deadlocked; // Deadlock: sorted; every process the decider's wait hangs on
  bool broke_cycle = false;     // Take: some sender was only ruled out because it waits on the
                                // decider (the Li & Zhang case)
  // Lower bounds the replies carried (clocks only move forward; kNever once finished): the
  // runtime folds them into UndecidedReceive::known_bounds so later decisions ask less.
  std::map<Rank, std::uint64_t> learned_bounds;
  std::size_t control_messages = 0; // requests and replies, or null messages for the baseline
  std::size_t rounds = 0;           // exchanges one after the other, or null-message rounds
};

} // namespace vcmon::deadlock
