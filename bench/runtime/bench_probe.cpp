// Probe cost (target: an enter+exit pair <= 30 ns median; docs/runtime.md, "Benchmarks"). Google
// Benchmark, one process, no MPI: the probes are the same before MPI_Init. Each benchmark reports
// one pair or one event; run with --benchmark_repetitions=9 --benchmark_report_aggregates_only=true
// for medians (docs/runtime.md has the command and the figures).
#include "vcmon/probes.h"

#include <benchmark/benchmark.h>

namespace {

enum { kMain, kCall, kProc, kLoop, kSiteCount };

const vcmon_site_desc kSites[kSiteCount] = {
    {VCMON_SITE_PROCEDURE, 1, 1, -1, "main", "main", VCMON_PROBING_TIMED},
    {VCMON_SITE_CALL, 2, 3, kMain, "work", "work", VCMON_PROBING_TIMED},
    {VCMON_SITE_PROCEDURE, 5, 1, -1, "work", "work", VCMON_PROBING_TIMED},
    {VCMON_SITE_LOOP, 6, 3, kProc, "for", "", VCMON_PROBING_TIMED},
};
const vcmon_unit_desc kUnit = {VCMON_PROBE_ABI_VERSION, "bench_probe.cpp", kSiteCount, kSites};

unsigned base() {
  static const unsigned registered = [] {
    unsigned b = 0;
    vcmon_register_unit(&kUnit, &b);
    return b;
  }();
  return registered;
}

// What the probes are compared with: the same number of calls of empty functions.
[[gnu::noinline]] void empty_probe(unsigned site) {
  benchmark::DoNotOptimize(site);
}

void BM_EmptyCallPair(benchmark::State& state) {
  const unsigned site = base() + kProc;
  for (auto _ : state) {
    empty_probe(site);
    empty_probe(site);
  }
}
BENCHMARK(BM_EmptyCallPair);

// A procedure entered and left: the pair the target is about.
void BM_ProcEnterExitPair(benchmark::State& state) {
  const unsigned site = base() + kProc;
  for (auto _ : state) {
    vcmon_proc_enter(site);
    vcmon_proc_exit(site);
  }
}
BENCHMARK(BM_ProcEnterExitPair);

// A whole instrumented call: call marker, procedure enter/exit, call marker (two pairs).
void BM_InstrumentedCall(benchmark::State& state) {
  const unsigned call = base() + kCall;
  const unsigned proc = base() + kProc;
  vcmon_proc_enter(base() + kMain);
  for (auto _ : state) {
    vcmon_call_enter(call);
    vcmon_proc_enter(proc);
    vcmon_proc_exit(proc);
    vcmon_call_exit(call);
  }
  vcmon_proc_exit(base() + kMain);
}
BENCHMARK(BM_InstrumentedCall);

void BM_LoopEnterExitPair(benchmark::State& state) {
  const unsigned loop = base() + kLoop;
  for (auto _ : state) {
    vcmon_loop_enter(loop);
    vcmon_loop_exit(loop);
  }
}
BENCHMARK(BM_LoopEnterExitPair);

void BM_LoopIteration(benchmark::State& state) {
  const unsigned loop = base() + kLoop;
  vcmon_loop_enter(loop);
  for (auto _ : state) {
    vcmon_loop_iter(loop);
  }
  vcmon_loop_exit(loop);
}
BENCHMARK(BM_LoopIteration);

// Several threads probing at once: records are per thread, so the cost must not grow.
void BM_ProcEnterExitPairThreads(benchmark::State& state) {
  const unsigned site = base() + kProc;
  for (auto _ : state) {
    vcmon_proc_enter(site);
    vcmon_proc_exit(site);
  }
}
BENCHMARK(BM_ProcEnterExitPairThreads)->Threads(2);

} // namespace

BENCHMARK_MAIN();
