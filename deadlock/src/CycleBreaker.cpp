#include "vcmon/deadlock/CycleBreaker.hpp"

#include "vcmon/deadlock/LowerBoundSolver.hpp"
#include "vcmon/deadlock/WaitGraph.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>

namespace vcmon::deadlock {

namespace {

using vclock::SenderBound;
using vclock::WildcardCandidate;
using vclock::WildcardVerdict;

std::uint64_t known_bound(const UndecidedReceive& receive, Rank rank) {
  const auto it = receive.known_bounds.find(rank);
  return it == receive.known_bounds.end() ? 0 : it->second;
}

std::vector<SenderBound> bounds_of(const std::vector<Rank>& senders, const LowerBounds& bounds) {
  std::vector<SenderBound> result;
  for (Rank sender : senders) {
    result.push_back({sender, bounds.at(sender)});
  }
  return result;
}

// Asks `frontier`, then the ranks blocked replies wait for that `worth_asking` admits, round
// after round until nobody new is named. Counts a request and a reply per rank asked.
std::map<Rank, ProcessState> gather(std::vector<Rank> frontier, StateExchange& exchange,
                                    const std::function<bool(Rank)>& worth_asking,
                                    Decision& decision) {
  std::map<Rank, ProcessState> replies;
  while (!frontier.empty()) {
    const std::vector<ProcessState> batch = exchange.request_states(frontier);
    if (batch.size() != frontier.size()) {
      throw std::runtime_error("StateExchange: expected one reply per rank asked");
    }
    decision.control_messages += 2 * frontier.size();
    ++decision.rounds;
    std::set<Rank> next;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (batch[i].rank != frontier[i]) {
        throw std::runtime_error("StateExchange: replies out of order");
      }
      replies.emplace(frontier[i], batch[i]);
      decision.learned_bounds[frontier[i]] =
          batch[i].activity == Activity::Finished ? kNever : batch[i].clock_ns;
    }
    for (const ProcessState& state : batch) {
      if (!state.blocked()) {
        continue;
      }
      for (Rank rank : state.waits_on) {
        if (!replies.contains(rank) && worth_asking(rank)) {
          next.insert(rank);
        }
      }
    }
    frontier.assign(next.begin(), next.end());
  }
  exchange.reconcile(replies);
  return replies;
}

// The decider, the replies, and every rank they mention that was not asked, taken as running
// at its known bound: a stale clock is still a lower bound on its next send.
std::vector<ProcessState> assemble(const ProcessState& self,
                                   const std::map<Rank, ProcessState>& replies,
                                   const UndecidedReceive& receive) {
  std::vector<ProcessState> states{self};
  std::set<Rank> mentioned(self.waits_on.begin(), self.waits_on.end());
  for (const auto& [rank, state] : replies) {
    states.push_back(state);
    if (state.blocked()) {
      mentioned.insert(state.waits_on.begin(), state.waits_on.end());
    }
  }
  for (Rank rank : mentioned) {
    if (rank != self.rank && !replies.contains(rank)) {
      ProcessState assumed;
      assumed.rank = rank;
      assumed.clock_ns = known_bound(receive, rank);
      assumed.can_send_to_decider = true;
      states.push_back(assumed);
    }
  }
  return states;
}

} // namespace

Decision CycleBreaker::decide(const UndecidedReceive& receive, StateExchange& exchange) const {
  Decision decision;
  const ProcessState& self = receive.self;
  std::vector<Rank> senders;
  for (Rank rank : std::set<Rank>(self.waits_on.begin(), self.waits_on.end())) {
    if (rank != self.rank) {
      senders.push_back(rank);
    }
  }

  std::optional<WildcardCandidate> earliest;
  std::vector<Rank> frontier = senders;
  if (!receive.candidates.empty()) {
    std::vector<SenderBound> local;
    for (Rank sender : senders) {
      local.push_back({sender, known_bound(receive, sender)});
    }
    const vclock::WildcardDecision at_hand = vclock::decide_wildcard(receive.candidates, local);
    if (at_hand.verdict == WildcardVerdict::Take) {
      decision.outcome = Outcome::Take;
      decision.taken = at_hand.earliest;
      return decision;
    }
    earliest = at_hand.earliest;
    frontier = at_hand.blocking_sources;
  }

  // Past the candidate, a known bound already settles a rank: asking it cannot change the
  // verdict (a lower bound above the arrival stays above it through any min or max).
  const auto worth_asking = [&](Rank rank) {
    return rank != self.rank && (!earliest || known_bound(receive, rank) <= earliest->arrival_ns);
  };
  const std::map<Rank, ProcessState> replies = gather(frontier, exchange, worth_asking, decision);

  ProcessState me = self;
  me.waits_on.clear();
  for (Rank sender : senders) {
    const auto reply = replies.find(sender);
    if (reply == replies.end() || keeps_sender(self, reply->second)) {
      me.waits_on.push_back(sender);
    }
  }
  // A plain blocked call that waits for this very process (a receive from itself) waits for
  // a send only it could make, and it is blocked: that part never ends.
  if (!earliest &&
      std::find(self.waits_on.begin(), self.waits_on.end(), self.rank) != self.waits_on.end()) {
    me.waits_on.push_back(self.rank);
  }
  const WaitGraph graph(assemble(me, replies, receive));
  const LowerBoundSolver solver(graph);

  if (earliest) {
    // Whatever the decider sends after taking the candidate leaves strictly after it arrived.
    const std::uint64_t resume = std::max(self.clock_ns, earliest->arrival_ns);
    const std::uint64_t after_taking = resume == kNever ? kNever : resume + 1;
    const vclock::WildcardDecision safe = vclock::decide_wildcard(
        receive.candidates,
        bounds_of(me.waits_on, solver.solve(PinnedBound{self.rank, after_taking})));
    if (safe.verdict != WildcardVerdict::Take) {
      decision.blocking = safe.blocking_sources;
      return decision;
    }
    decision.outcome = Outcome::Take;
    decision.taken = safe.earliest;
    // Had the decider been free to resume at once, would someone have blocked? Then the
    // waiting cycle through the decider is what this decision broke.
    decision.broke_cycle =
        vclock::decide_wildcard(
            receive.candidates,
            bounds_of(me.waits_on, solver.solve(PinnedBound{self.rank, self.clock_ns})))
            .verdict != WildcardVerdict::Take;
    return decision;
  }

  const LowerBounds bounds = solver.solve();
  if (bounds.at(self.rank) != kNever) {
    for (Rank sender : me.waits_on) {
      if (bounds.at(sender) != kNever) {
        decision.blocking.push_back(sender);
      }
    }
    return decision;
  }
  const auto stuck = [&](Rank rank) {
    return bounds.at(rank) == kNever && graph.state(rank).blocked();
  };
  decision.outcome = Outcome::Deadlock;
  decision.deadlocked = graph.reachable_through(self.rank, stuck);
  decision.cycle = graph.find_cycle(self.rank, stuck);
  return decision;
}

} // namespace vcmon::deadlock
