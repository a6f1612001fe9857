// The deadlock module's StateExchange over the control channel: one request to and one reply
// from each rank asked. `can_send_to_decider` is membership in the decider's communicator (any
// member may still send any tag); a rank that did not answer in time counts as running at its
// known bound; the answers are kept for a deadlock check.
#pragma once

#include "mpi/control/ControlChannel.hpp"
#include "mpi/stamps/ReceivedSoFar.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/stamps/StampProtocol.hpp"

#include "core/Monitor.hpp"

#include "vcmon/deadlock/StateExchange.hpp"

#include <map>
#include <vector>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) ControlStateExchange final
    : public deadlock::StateExchange {
public:
  // For a deadlock check: every rank counts as a possible sender, at its bound now. `control`:
  // the process's channel, over which it asks (and its stamp protocol).
  ControlStateExchange(Monitor& monitor, ControlChannel& control)
      : monitor_(monitor), control_(control), stamps_(control.stamps()) {}
  // For a wildcard decision on `shadow` (the decider's communicator) whose candidates were
  // read with `sight`: a stamp filed later (this rank serves, and so files, while it waits for
  // replies) is not among them, and neither its count nor its bound may speak for its sender.
  ControlStateExchange(Monitor& monitor, ControlChannel& control, const Shadow& shadow,
                       const ReceivedSoFar& sight);

  std::vector<deadlock::ProcessState>
  request_states(std::span<const deadlock::Rank> ranks) override;
  // A wildcard decision's replies carry every rank's stamp counts (up to kCountedRanks ranks):
  // a rank waiting for another that has sent it more stamps than it had received when it
  // answered becomes Running at its clock.
  void reconcile(std::map<deadlock::Rank, deadlock::ProcessState>& states) override;

  // The answers so far, by rank.
  const std::map<deadlock::Rank, StateReply>& replies() const { return replies_; }
  // Whether a rank that did not answer was taken to be blocked: it is stuck in a call the
  // layer cannot poll (ControlChannel::stuck_unpolled) that may wait for another process, and
  // waiting for its answer could hang the program. Wildcard decisions only.
  bool assumed_stuck() const { return assumed_stuck_; }

private:
  // The replies of `ranks`, in order: for a wildcard decision, a rank known to wait for this
  // one alone (WaitersOnThisRank) is not asked again; the others are asked.
  std::vector<StateReply> ask_or_recall(std::span<const deadlock::Rank> ranks);

  // Beyond this many ranks a reply would carry too many counts: reconcile() does nothing.
  static constexpr int kCountedRanks = 1024;

  // Whether `state` waits in a collective instance that this process has seen every member
  // enter (ShadowCommunicators' entered_by_all).
  bool collective_passed(const deadlock::ProcessState& state) const;

  // The stamps `from` had sent `to` when it answered (this process: now); nullopt if unknown.
  std::optional<std::uint64_t> sent(int from, int to) const;

  // The rank that `rank`, which did not answer, is taken to wait for: the decider itself when
  // it is stuck in one-sided synchronisation (a lock the decider may hold), the receiver when
  // it is stuck in a blocking send (MPI sends it by rendezvous); nullopt otherwise.
  std::optional<int> stuck_waiting_for(const StateReply& reply, int rank) const;

  // What is known of `rank` without its answer: its bound when the decider looked.
  std::uint64_t known_bound(int rank) const;

  Monitor& monitor_;
  ControlChannel& control_;
  StampProtocol& stamps_;
  const Shadow* shadow_ = nullptr;       // a wildcard decision only
  const ReceivedSoFar* sight_ = nullptr; // a wildcard decision only
  std::map<deadlock::Rank, StateReply> replies_;
  // The ranks whose counts replies carry: every world rank (a wildcard decision in a world of
  // at most kCountedRanks), else none.
  std::vector<int> counted_;
  bool assumed_stuck_ = false;
};

// The bounds this process holds for every rank of a world of `world_size`, as the deadlock
// module takes them: now (`bounds`), or as `sight` read them.
std::map<deadlock::Rank, std::uint64_t> known_bounds(const SenderBounds& bounds, int world_size);
std::map<deadlock::Rank, std::uint64_t> known_bounds(const ReceivedSoFar& sight);

} // namespace vcmon::runtime::mpi
