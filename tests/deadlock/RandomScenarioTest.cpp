// A few hundred seeded random scenarios: every CycleBreaker decision must agree with the
// brute-force eager simulation, and the null-message baseline must reach every Take too.
#include "vcmon/deadlock/CycleBreaker.hpp"
#include "vcmon/deadlock/NullMessageBaseline.hpp"
#include "vcmon/deadlock/SnapshotStateExchange.hpp"

#include "EagerReference.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace vcmon::deadlock {
namespace {

using testing::DeciderResumes;
using testing::simulate_eagerly;

struct RandomScenario {
  std::vector<ProcessState> others;
  UndecidedReceive receive;

  std::vector<ProcessState> everyone() const {
    std::vector<ProcessState> all = others;
    all.push_back(receive.self);
    return all;
  }
};

std::uint64_t uniform(std::mt19937_64& rng, std::uint64_t low, std::uint64_t high) {
  return std::uniform_int_distribution<std::uint64_t>(low, high)(rng);
}

// 3 to 8 processes in every mix of states, clocks in 0..100 so that ties happen; known
// bounds never above what the process's state guarantees.
RandomScenario generate(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int n = static_cast<int>(uniform(rng, 3, 8));
  const Rank decider = static_cast<Rank>(uniform(rng, 0, static_cast<std::uint64_t>(n - 1)));
  RandomScenario scenario;
  scenario.receive.self.rank = decider;
  scenario.receive.self.activity = Activity::BlockedAny;
  scenario.receive.self.clock_ns = uniform(rng, 0, 100);

  for (Rank rank = 0; rank < n; ++rank) {
    if (rank == decider) {
      continue;
    }
    scenario.receive.self.waits_on.push_back(rank);
    ProcessState state;
    state.rank = rank;
    state.clock_ns = uniform(rng, 0, 100);
    const std::uint64_t roll = uniform(rng, 0, 99);
    state.activity = roll < 30   ? Activity::Running
                     : roll < 65 ? Activity::BlockedAny
                     : roll < 85 ? Activity::BlockedAll
                                 : Activity::Finished;
    if (state.blocked()) {
      std::set<Rank> on;
      const std::uint64_t count = uniform(rng, 1, std::min<std::uint64_t>(3, n - 1));
      while (on.size() < count) {
        const Rank target = static_cast<Rank>(uniform(rng, 0, static_cast<std::uint64_t>(n - 1)));
        if (target != rank) {
          on.insert(target);
        }
      }
      state.waits_on.assign(on.begin(), on.end());
      if (state.activity == Activity::BlockedAny && uniform(rng, 0, 99) < 15) {
        state.present_arrival_ns = state.clock_ns + uniform(rng, 0, 60);
      }
    }
    state.can_send_to_decider = uniform(rng, 0, 99) < 85;
    const std::uint64_t floor =
        state.activity == Activity::Finished ? uniform(rng, 0, 150) : state.clock_ns;
    scenario.receive.known_bounds[rank] = uniform(rng, 0, 1) == 0 ? floor : uniform(rng, 0, floor);
    scenario.others.push_back(state);
  }

  if (uniform(rng, 0, 99) < 80) {
    std::vector<Rank> sources = scenario.receive.self.waits_on;
    std::shuffle(sources.begin(), sources.end(), rng);
    const std::uint64_t count = uniform(rng, 1, std::min<std::uint64_t>(3, sources.size()));
    for (std::uint64_t i = 0; i < count; ++i) {
      scenario.receive.candidates.push_back({sources[i], uniform(rng, 0, 150), i});
    }
  }
  return scenario;
}

// The reported cycle is made of processes that never resume, each waiting for the next.
void expect_valid_cycle(const std::vector<Rank>& cycle, const std::vector<ProcessState>& everyone,
                        const std::vector<Rank>& never_resume) {
  std::map<Rank, const ProcessState*> state_of;
  for (const ProcessState& state : everyone) {
    state_of.emplace(state.rank, &state);
  }
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const ProcessState& waiter = *state_of.at(cycle[i]);
    const Rank next = cycle[(i + 1) % cycle.size()];
    EXPECT_NE(std::find(waiter.waits_on.begin(), waiter.waits_on.end(), next),
              waiter.waits_on.end())
        << cycle[i] << " does not wait for " << next;
    EXPECT_TRUE(std::binary_search(never_resume.begin(), never_resume.end(), cycle[i]));
  }
}

TEST(RandomScenarios, CycleBreakerAgreesWithTheEagerSimulationOnEveryDecision) {
  std::map<Outcome, int> outcomes;
  int broken_cycles = 0;
  int baseline_takes = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const RandomScenario scenario = generate(seed);
    const std::vector<ProcessState> everyone = scenario.everyone();
    const Rank decider = scenario.receive.self.rank;
    SnapshotStateExchange exchange(scenario.others);
    const Decision decision = CycleBreaker().decide(scenario.receive, exchange);
    ++outcomes[decision.outcome];
    EXPECT_EQ(decision.control_messages, 2 * exchange.ranks_queried());

    if (!scenario.receive.candidates.empty()) {
      const auto reference = simulate_eagerly(everyone, decider, scenario.receive.candidates,
                                              DeciderResumes::WithCandidate);
      if (!reference.preceding.empty()) {
        EXPECT_EQ(decision.outcome, Outcome::Wait);
        EXPECT_EQ(decision.blocking, reference.preceding);
        continue;
      }
      ASSERT_EQ(decision.outcome, Outcome::Take);
      EXPECT_EQ(decision.taken,
                *std::min_element(scenario.receive.candidates.begin(),
                                  scenario.receive.candidates.end(), vclock::taken_before));
      const auto free =
          simulate_eagerly(everyone, decider, scenario.receive.candidates, DeciderResumes::AtOnce);
      EXPECT_EQ(decision.broke_cycle, !free.preceding.empty());
      broken_cycles += decision.broke_cycle ? 1 : 0;

      // The baseline gets there too once the running processes' clocks are known to it.
      UndecidedReceive stamped = scenario.receive;
      for (const ProcessState& state : scenario.others) {
        if (state.activity == Activity::Running) {
          stamped.known_bounds[state.rank] = state.clock_ns;
        }
      }
      const Decision baseline = NullMessageBaseline(1, 100'000).decide(stamped, scenario.others);
      EXPECT_EQ(baseline.outcome, Outcome::Take);
      EXPECT_EQ(baseline.taken, decision.taken);
      baseline_takes += baseline.outcome == Outcome::Take ? 1 : 0;
      continue;
    }

    const auto reference = simulate_eagerly(everyone, decider, {}, DeciderResumes::OnItsWait);
    if (reference.sends.contains(decider)) {
      EXPECT_EQ(decision.outcome, Outcome::Wait);
      EXPECT_EQ(decision.blocking, reference.preceding);
      continue;
    }
    ASSERT_EQ(decision.outcome, Outcome::Deadlock);
    EXPECT_EQ(decision.deadlocked, reference.never_resume);
    EXPECT_EQ(decision.cycle.empty(), !reference.never_resume_has_cycle);
    expect_valid_cycle(decision.cycle, everyone, reference.never_resume);
  }
  // The generator must exercise every kind of decision, not only the easy ones.
  EXPECT_GE(outcomes[Outcome::Take], 40);
  EXPECT_GE(outcomes[Outcome::Wait], 40);
  EXPECT_GE(outcomes[Outcome::Deadlock], 5);
  EXPECT_GE(broken_cycles, 10);
  EXPECT_EQ(baseline_takes, outcomes[Outcome::Take]);
}

} // namespace
} // namespace vcmon::deadlock
