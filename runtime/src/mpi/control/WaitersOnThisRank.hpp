// Ranks known to wait for this one alone (docs/deadlock.md, "Replies kept"): a state reply said
// the rank was blocked and that only this rank's next message could wake it, and this rank has
// sent it nothing since. Such a rank is still blocked, so a later wildcard decision takes the
// kept reply instead of asking again. In a master/worker round every worker that has handed in
// its result waits for the master's next task: asked once, it is not asked at each following
// decision of the round.
#pragma once

#include "mpi/control/ControlMessages.hpp"

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace vcmon::runtime::mpi {

class WaitersOnThisRank {
public:
  WaitersOnThisRank(int self, int world_size)
      : self_(self), replies_(static_cast<std::size_t>(world_size)) {}

  // Keeps `reply` from world rank `rank` when it shows the rank blocked outside any collective,
  // every thread waiting for a message to arrive (WaitPlace::message_wait: a receive, not a
  // send that this rank's receive would end), none at hand, only this rank able to send it one,
  // and having received all `sent_to_rank`
  // stamps this rank has sent it (read after the reply arrived; the reply carries its counts
  // for every world rank). Otherwise forgets what was kept for `rank`.
  void remember(int rank, const StateReply& reply, std::uint64_t sent_to_rank);
  // The reply kept for `rank` if this rank has still sent it `sent_to_rank` stamps, no more.
  std::optional<StateReply> recall(int rank, std::uint64_t sent_to_rank);

private:
  bool waits_for_this_rank_alone(const StateReply& reply, std::uint64_t sent_to_rank) const;

  const int self_;
  std::mutex mutex_; // deciding threads of one process; decisions that ask are the slow path
  std::vector<std::optional<StateReply>> replies_; // by world rank
};

} // namespace vcmon::runtime::mpi
