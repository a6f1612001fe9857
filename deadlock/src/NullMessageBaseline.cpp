#include "vcmon/deadlock/NullMessageBaseline.hpp"

#include "vcmon/deadlock/NullMessageEndpoint.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace vcmon::deadlock {

namespace {

// What a process knows of an input before any null message: its last stamp.
std::uint64_t stamped_bound(const ProcessState& input) {
  return input.activity == Activity::Finished ? kNever : input.clock_ns;
}

} // namespace

Decision NullMessageBaseline::decide(const UndecidedReceive& receive,
                                     const std::vector<ProcessState>& others) const {
  std::map<Rank, const ProcessState*> state_of;
  for (const ProcessState& state : others) {
    state_of.emplace(state.rank, &state);
  }

  // The decider listens to the senders that can match, knowing what it already knew.
  ProcessState decider = receive.self;
  decider.waits_on.clear();
  for (Rank rank : std::set<Rank>(receive.self.waits_on.begin(), receive.self.waits_on.end())) {
    const auto it = state_of.find(rank);
    if (rank != decider.rank && (it == state_of.end() || keeps_sender(decider, *it->second))) {
      decider.waits_on.push_back(rank);
    }
  }
  if (!receive.candidates.empty()) {
    decider.present_arrival_ns =
        std::min_element(receive.candidates.begin(), receive.candidates.end(), vclock::taken_before)
            ->arrival_ns;
  }
  std::map<Rank, std::uint64_t> decider_channels;
  for (Rank rank : decider.waits_on) {
    const auto it = state_of.find(rank);
    const bool finished = it != state_of.end() && it->second->activity == Activity::Finished;
    const auto known = receive.known_bounds.find(rank);
    decider_channels[rank] = finished                              ? kNever
                             : known == receive.known_bounds.end() ? 0
                                                                   : known->second;
  }
  // A message already there is the earliest its source can still deliver (non-overtaking).
  for (const vclock::WildcardCandidate& candidate : receive.candidates) {
    std::uint64_t& channel = decider_channels[candidate.source];
    channel = std::max(channel, candidate.arrival_ns);
  }

  std::map<Rank, NullMessageEndpoint> endpoints;
  endpoints.emplace(decider.rank, NullMessageEndpoint(decider, decider_channels, lookahead_ns_));
  for (const ProcessState& state : others) {
    if (!state.blocked() || state.rank == decider.rank) {
      continue;
    }
    std::map<Rank, std::uint64_t> channels;
    for (Rank rank : state.waits_on) {
      const auto it = state_of.find(rank);
      channels[rank] = rank == decider.rank   ? decider.clock_ns
                       : it == state_of.end() ? 0
                                              : stamped_bound(*it->second);
    }
    endpoints.emplace(state.rank, NullMessageEndpoint(state, channels, lookahead_ns_));
  }

  // An MPI process may send to any rank of the communicator, so every other process is on
  // an output channel of the announcer (Chandy–Misra needs the static channel graph).
  std::vector<Rank> ranks{decider.rank};
  for (const ProcessState& state : others) {
    ranks.push_back(state.rank);
  }

  const NullMessageEndpoint& decider_end = endpoints.at(decider.rank);
  const auto check = [&] {
    std::vector<vclock::SenderBound> bounds;
    for (Rank rank : decider.waits_on) {
      bounds.push_back({rank, decider_end.channel_bound(rank)});
    }
    return vclock::decide_wildcard(receive.candidates, bounds);
  };

  Decision decision;
  std::map<Rank, std::uint64_t> announced;
  for (vclock::WildcardDecision verdict = check();; verdict = check()) {
    if (verdict.verdict == vclock::WildcardVerdict::Take) {
      decision.outcome = Outcome::Take;
      decision.taken = verdict.earliest;
      return decision;
    }
    decision.blocking = verdict.blocking_sources;
    if (decision.rounds == max_rounds_) {
      return decision;
    }
    std::vector<std::tuple<Rank, Rank, std::uint64_t>> in_flight; // to, from, bound
    for (const auto& [rank, endpoint] : endpoints) {
      const std::uint64_t bound = endpoint.announcement();
      const auto previous = announced.find(rank);
      if (previous != announced.end() && previous->second == bound) {
        continue;
      }
      announced[rank] = bound;
      for (Rank to : ranks) {
        if (to != rank) {
          in_flight.emplace_back(to, rank, bound);
        }
      }
    }
    if (in_flight.empty()) {
      return decision; // quiescent: only a running process's progress can move things
    }
    for (const auto& [to, from, bound] : in_flight) {
      if (const auto listener = endpoints.find(to); listener != endpoints.end()) {
        listener->second.receive_null(from, bound); // running processes just drop them
      }
    }
    decision.control_messages += in_flight.size();
    ++decision.rounds;
  }
}

} // namespace vcmon::deadlock
