// Cost of one undecided wildcard receive, cycle breaking (CycleBreaker) against the
// Chandy–Misra null-message baseline, on simulated states (SnapshotStateExchange): control
// messages and rounds per decision as counters, decision time as the benchmark time. The
// MPI-level figures come with the runtime integration.
#include "vcmon/deadlock/CycleBreaker.hpp"
#include "vcmon/deadlock/NullMessageBaseline.hpp"
#include "vcmon/deadlock/SnapshotStateExchange.hpp"

#include <benchmark/benchmark.h>

#include <vector>

namespace {

using namespace vcmon::deadlock;

struct Scenario {
  std::vector<ProcessState> others;
  UndecidedReceive receive;
};

ProcessState process(Rank rank, Activity activity, std::uint64_t clock_ns, std::vector<Rank> on) {
  ProcessState state;
  state.rank = rank;
  state.activity = activity;
  state.clock_ns = clock_ns;
  state.waits_on = std::move(on);
  state.can_send_to_decider = true;
  return state;
}

ProcessState blocked_on(Rank rank, std::uint64_t clock_ns, std::vector<Rank> on) {
  return process(rank, Activity::BlockedAny, clock_ns, std::move(on));
}

// 1 master + `workers`: two results are there (at 1.20 and 1.25 ms); every other worker has
// sent its previous result (stamped about 0.9 ms) and waits for its next task from the
// master, so its clock alone does not rule it out.
Scenario master_workers(int workers) {
  Scenario s;
  s.receive.self = blocked_on(0, 1'000'000, {});
  s.receive.candidates = {{1, 1'200'000, 0}, {2, 1'250'000, 1}};
  for (Rank w = 1; w <= workers; ++w) {
    s.receive.self.waits_on.push_back(w);
    s.others.push_back(blocked_on(w, 950'000 + 5'000 * static_cast<std::uint64_t>(w), {0}));
    s.receive.known_bounds[w] = 900'000;
  }
  return s;
}

// The figure-4 ring with `ranks` processes: P1 waits for P0 (message there at 30 µs) or the
// last rank; each rank from 2 on waits to receive from the one before it, P2 from P1; their
// clocks lie between 10 and 25 µs, all below the candidate.
Scenario ring(int ranks) {
  Scenario s;
  const Rank last = ranks - 1;
  s.receive.self = blocked_on(1, 10'000, {0, last});
  s.receive.candidates = {{0, 30'000, 0}};
  s.receive.known_bounds[0] = 28'000;
  s.others.push_back(process(0, Activity::Running, 32'000, {}));
  for (Rank r = 2; r <= last; ++r) {
    const std::uint64_t clock =
        10'000 + 15'000 * static_cast<std::uint64_t>(r - 1) / static_cast<std::uint64_t>(ranks - 2);
    s.others.push_back(blocked_on(r, clock, {r - 1}));
    s.receive.known_bounds[r] = clock - 2'000;
  }
  return s;
}

void report(benchmark::State& state, const Decision& decision) {
  if (decision.outcome != Outcome::Take) {
    state.SkipWithError("the scenario was not decided");
  }
  state.counters["control_messages"] = static_cast<double>(decision.control_messages);
  state.counters["rounds"] = static_cast<double>(decision.rounds);
}

void cycle_breaking(benchmark::State& state, const Scenario& scenario) {
  Decision decision;
  for (auto _ : state) {
    SnapshotStateExchange exchange(scenario.others);
    decision = CycleBreaker().decide(scenario.receive, exchange);
    benchmark::DoNotOptimize(decision);
  }
  report(state, decision);
}

void null_messages(benchmark::State& state, const Scenario& scenario) {
  const NullMessageBaseline baseline(static_cast<std::uint64_t>(state.range(1)), 10'000'000);
  Decision decision;
  for (auto _ : state) {
    decision = baseline.decide(scenario.receive, scenario.others);
    benchmark::DoNotOptimize(decision);
  }
  report(state, decision);
}

void BM_MasterWorkers_Cycle(benchmark::State& state) {
  cycle_breaking(state, master_workers(static_cast<int>(state.range(0))));
}
void BM_MasterWorkers_NullMessage(benchmark::State& state) {
  null_messages(state, master_workers(static_cast<int>(state.range(0))));
}
void BM_Ring_Cycle(benchmark::State& state) {
  cycle_breaking(state, ring(static_cast<int>(state.range(0))));
}
void BM_Ring_NullMessage(benchmark::State& state) {
  null_messages(state, ring(static_cast<int>(state.range(0))));
}

// Arguments: workers (or ranks on the ring), then the lookahead in ns for the baseline.
BENCHMARK(BM_MasterWorkers_Cycle)->ArgNames({"workers"})->Arg(7);
BENCHMARK(BM_MasterWorkers_NullMessage)
    ->ArgNames({"workers", "lookahead_ns"})
    ->Args({7, 1'000})
    ->Args({7, 10'000})
    ->Args({7, 100'000});
BENCHMARK(BM_Ring_Cycle)->ArgNames({"ranks"})->Arg(4)->Arg(16);
BENCHMARK(BM_Ring_NullMessage)
    ->ArgNames({"ranks", "lookahead_ns"})
    ->Args({4, 100})
    ->Args({4, 500})
    ->Args({4, 1'000})
    ->Args({4, 5'000})
    ->Args({16, 1'000});

} // namespace
