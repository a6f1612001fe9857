// The decision of one nondeterministic event by virtual time (docs/design.md, "Wildcard receives in
// virtual order" and "Waiting cycles"), shared by wildcard receives and probes (candidates: stamps
// that have arrived) and by Waitany/Testany/Waitsome/Testsome (candidates: receive requests whose
// stamps have arrived). The attempts themselves are DecisionAttempts': first the rule over the
// bounds at hand; while it says Wait, VCMON_DEADLOCK=cycle asks the blocking senders and those
// they wait for (CycleBreaker, here over the control channel), VCMON_DEADLOCK=nullmsg announces
// this process's bound and waits for the others'.
// A rank of this node stuck inside an MPI call the layer cannot poll (a one-sided lock, say,
// that may wait for this very process) cannot answer; after a while it is assumed to wait for
// the decider (ControlStateExchange), and a decision resting on that is counted as forced: it
// may not be the message the unmonitored run takes, but waiting could hang the program.
#pragma once

#include "mpi/control/BlockedCall.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/control/NullAnnouncer.hpp"
#include "mpi/stamps/ReceivedSoFar.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "mpi/wildcard/DecisionAttempts.hpp"
#include "mpi/wildcard/WildcardTrace.hpp"

#include "core/Monitor.hpp"

#include "vcmon/vclock/WildcardOrder.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) SafeDecision {
public:
  // `control`: the process's channel, over which a decision asks (and its stamp protocol);
  // `trace`: the process's, where each decision is traced.
  SafeDecision(Monitor& monitor, ControlChannel& control, WildcardTrace& trace,
               const Shadow& shadow)
      : monitor_(monitor), control_(control), trace_(trace), stamps_(control.stamps()),
        shadow_(shadow) {}

  // Candidates and senders name world ranks; `sight` was read with them, under one hold.
  // `waiting`: the decider's own wait, for state requests. `horizon`: Test-style calls report
  // only arrivals up to it. The candidate to take now, or nullopt.
  // `may_ask`: false where the caller must not wait for answers (outside any wait): only the
  // bounds at hand decide then.
  std::optional<vclock::WildcardCandidate>
  decide(std::span<const vclock::WildcardCandidate> candidates,
         std::span<const vclock::SenderBound> senders, const ReceivedSoFar& sight,
         const BlockedCall& waiting, std::optional<std::uint64_t> horizon, bool may_ask = true);

  // Counts the decision taken (and the safety wait since the first candidate came, at real
  // time `first_candidate_rt`, 0: none, until `decided_rt`) and traces it: `function`
  // took the stamp `stamp`.
  void record(unsigned function, const PendingStamp& stamp, std::uint64_t first_candidate_rt,
              std::uint64_t decided_rt) const;

private:
  friend class SafeDecisionHelp;

  std::optional<vclock::WildcardCandidate>
  break_cycle(std::span<const vclock::WildcardCandidate> candidates, const ReceivedSoFar& sight,
              const BlockedCall& waiting);

  Monitor& monitor_;
  ControlChannel& control_;
  WildcardTrace& trace_;
  StampProtocol& stamps_;
  const Shadow& shadow_;
  DecisionAttempts attempts_;
  bool broke_cycle_ = false;
  bool forced_ = false;
  NullAnnouncer announcer_;
};

} // namespace vcmon::runtime::mpi
