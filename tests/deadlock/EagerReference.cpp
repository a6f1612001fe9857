#include "EagerReference.hpp"

#include "vcmon/deadlock/UndecidedReceive.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <set>
#include <tuple>

namespace vcmon::deadlock::testing {

namespace {

// (virtual time, 1 for the decider's candidate-driven resumption so it comes after every
// other event at that time, rank)
using Event = std::tuple<std::uint64_t, int, Rank>;

// Whether the processes of `members`, with the waits-for edges among them, contain a cycle:
// Kahn's algorithm leaves the processes on or behind a cycle unremoved.
bool has_cycle(const std::set<Rank>& members, const std::map<Rank, ProcessState>& states) {
  std::map<Rank, int> waiting_for; // out-degree inside members
  std::map<Rank, std::vector<Rank>> waiters;
  for (Rank rank : members) {
    for (Rank target :
         std::set<Rank>(states.at(rank).waits_on.begin(), states.at(rank).waits_on.end())) {
      if (members.contains(target)) {
        ++waiting_for[rank];
        waiters[target].push_back(rank);
      }
    }
  }
  std::vector<Rank> free;
  for (Rank rank : members) {
    if (waiting_for[rank] == 0) {
      free.push_back(rank);
    }
  }
  std::size_t removed = 0;
  while (!free.empty()) {
    const Rank rank = free.back();
    free.pop_back();
    ++removed;
    for (Rank waiter : waiters[rank]) {
      if (--waiting_for[waiter] == 0) {
        free.push_back(waiter);
      }
    }
  }
  return removed != members.size();
}

} // namespace

EagerOutcome simulate_eagerly(const std::vector<ProcessState>& everyone, Rank decider,
                              const std::vector<vclock::WildcardCandidate>& candidates,
                              DeciderResumes resumes) {
  std::map<Rank, ProcessState> states;
  for (const ProcessState& state : everyone) {
    states.emplace(state.rank, state);
  }
  ProcessState& self = states.at(decider);
  std::erase_if(self.waits_on, [&](Rank r) {
    return r == decider || (states.contains(r) && !keeps_sender(self, states.at(r)));
  });
  std::set<Rank> candidate_sources;
  for (const auto& candidate : candidates) {
    candidate_sources.insert(candidate.source);
  }
  const auto earliest =
      std::min_element(candidates.begin(), candidates.end(), vclock::taken_before);

  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (const auto& [rank, state] : states) {
    if (rank == decider && resumes != DeciderResumes::OnItsWait) {
      const std::uint64_t at = resumes == DeciderResumes::AtOnce
                                   ? state.clock_ns
                                   : std::max(state.clock_ns, earliest->arrival_ns);
      events.emplace(at, resumes == DeciderResumes::WithCandidate ? 1 : 0, rank);
    } else if (state.activity == Activity::Running) {
      events.emplace(state.clock_ns, 0, rank);
    } else if (state.activity == Activity::BlockedAny && state.present_arrival_ns) {
      events.emplace(std::max(state.clock_ns, *state.present_arrival_ns), 0, rank);
    } else if (state.activity == Activity::BlockedAll && state.waits_on.empty()) {
      events.emplace(state.clock_ns, 0, rank);
    }
  }

  EagerOutcome outcome;
  const std::set<Rank> senders(self.waits_on.begin(), self.waits_on.end());
  while (!events.empty()) {
    const auto [time, after_others, rank] = events.top();
    events.pop();
    if (outcome.sends.contains(rank)) {
      continue;
    }
    outcome.sends.emplace(rank, time);
    if (rank == decider && resumes == DeciderResumes::WithCandidate) {
      break; // the candidate is taken: nothing later can precede it
    }
    if (senders.contains(rank) && !candidate_sources.contains(rank) &&
        (candidates.empty() || vclock::could_precede({rank, time}, *earliest))) {
      outcome.preceding.push_back(rank);
    }
    for (const auto& [waiter, state] : states) {
      const bool listens =
          std::find(state.waits_on.begin(), state.waits_on.end(), rank) != state.waits_on.end();
      if (!state.blocked() || !listens || outcome.sends.contains(waiter) ||
          (waiter == decider && resumes != DeciderResumes::OnItsWait)) {
        continue;
      }
      if (state.activity == Activity::BlockedAny) {
        events.emplace(std::max(state.clock_ns, time), 0, waiter);
      } else if (std::all_of(state.waits_on.begin(), state.waits_on.end(),
                             [&](Rank r) { return outcome.sends.contains(r); })) {
        std::uint64_t latest = state.clock_ns;
        for (Rank r : state.waits_on) {
          latest = std::max(latest, outcome.sends.at(r));
        }
        events.emplace(latest, 0, waiter);
      }
    }
  }
  std::sort(outcome.preceding.begin(), outcome.preceding.end());

  const auto stuck = [&](Rank r) { return states.at(r).blocked() && !outcome.sends.contains(r); };
  std::set<Rank> reached;
  std::vector<Rank> frontier;
  if (stuck(decider)) {
    frontier.push_back(decider);
    reached.insert(decider);
  }
  while (!frontier.empty()) {
    const Rank rank = frontier.back();
    frontier.pop_back();
    for (Rank target : states.at(rank).waits_on) {
      if (stuck(target) && reached.insert(target).second) {
        frontier.push_back(target);
      }
    }
  }
  outcome.never_resume.assign(reached.begin(), reached.end());
  outcome.never_resume_has_cycle = has_cycle(reached, states);
  return outcome;
}

} // namespace vcmon::deadlock::testing
