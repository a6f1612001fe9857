// Profile size and encode/decode time for 10 000 sites x 4 partners x 64 ranks. Prints the
// bytes each record kind costs, then times encoding and decoding (medians of 5 repetitions).
#include "SyntheticProfile.hpp"

#include "vcmon/tables/Profile.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>

namespace {

using namespace vcmon::tables;

constexpr testing::ProfileShape kShape{.sites = 10'000, .ranks = 64, .partners = 4};

// Most communication statements send one size every time (a halo of fixed width, a reduction
// of one vector): three com records in four hold `count` messages of one size, the fourth
// messages of several sizes.
Profile with_mostly_one_size(Profile p) {
  std::size_t n = 0;
  for (RankRecords& r : p.ranks) {
    for (ComRecord& c : r.coms) {
      if (n++ % 4 != 3 && c.count > 0) {
        c.bytes = c.sizes.min_bytes * c.count;
        c.sizes.max_bytes = c.sizes.min_bytes;
      }
    }
  }
  return p;
}

const Profile& large_profile() {
  static const Profile profile = with_mostly_one_size(testing::make_synthetic_profile(kShape, 42));
  return profile;
}

double bytes_per(std::size_t bytes, std::size_t records) {
  return records == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(records);
}

// The same program run a million times longer: counts, times and bytes scale, records do not.
Profile run_longer(Profile p) {
  for (RankRecords& r : p.ranks) {
    for (ProcRecord& x : r.procs) {
      x.time_ns *= 1'000'000;
      x.count *= 1'000'000;
    }
    for (LoopRecord& x : r.loops) {
      x.time_ns *= 1'000'000;
      x.count *= 1'000'000;
      x.iterations *= 1'000'000;
    }
    for (ComRecord& x : r.coms) {
      x.transmission_ns *= 1'000'000;
      x.sync_delay_ns *= 1'000'000;
      x.count *= 1'000'000;
      x.bytes *= 1'000'000;
      for (std::uint64_t& messages : x.sizes.classes) {
        messages *= 1'000'000;
      }
    }
  }
  return p;
}

void print_size_table() {
  const Profile& p = large_profile();
  std::size_t procs = 0, loops = 0, coms = 0, proc_bytes = 0, loop_bytes = 0, com_bytes = 0,
              rank_bytes = 0;
  for (const RankRecords& r : p.ranks) {
    const std::size_t all = encode_rank_records(r).size();
    RankRecords without = r;
    without.procs.clear();
    proc_bytes += all - encode_rank_records(without).size();
    without = r;
    without.loops.clear();
    loop_bytes += all - encode_rank_records(without).size();
    without = r;
    without.coms.clear();
    com_bytes += all - encode_rank_records(without).size();
    rank_bytes += all;
    procs += r.procs.size();
    loops += r.loops.size();
    coms += r.coms.size();
  }
  Profile graph_only = p;
  graph_only.ranks.clear();
  Profile empty = graph_only;
  empty.graph = {};
  const std::size_t graph_bytes = encode_profile(graph_only).size() - encode_profile(empty).size();
  const std::size_t total = encode_profile(p).size();

  std::printf("profile of %zu sites x %d partners x %d ranks\n", kShape.sites, kShape.partners,
              kShape.ranks);
  std::printf("%-34s %12s %12s %10s\n", "part", "count", "bytes", "bytes/each");
  std::printf("%-34s %12zu %12zu %10.2f\n", "site (static tables)", p.graph.size(), graph_bytes,
              bytes_per(graph_bytes, p.graph.size()));
  std::printf("%-34s %12zu %12zu %10.2f\n", "proc record", procs, proc_bytes,
              bytes_per(proc_bytes, procs));
  std::printf("%-34s %12zu %12zu %10.2f\n", "loop record", loops, loop_bytes,
              bytes_per(loop_bytes, loops));
  std::printf("%-34s %12zu %12zu %10.2f\n", "com record", coms, com_bytes,
              bytes_per(com_bytes, coms));
  const std::size_t rank_overhead = rank_bytes - proc_bytes - loop_bytes - com_bytes;
  std::printf("%-34s %12zu %12zu %10.2f\n", "rank header (host, times, counters)", p.ranks.size(),
              rank_overhead, bytes_per(rank_overhead, p.ranks.size()));
  std::printf("%-34s %12s %12zu\n", "whole profile", "", total);
  std::printf("%-34s %12s %12zu\n", "same program, 10^6x longer run", "",
              encode_profile(run_longer(p)).size());
  std::printf("\n");
}

void BM_EncodeProfile(benchmark::State& state) {
  const Profile& p = large_profile();
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::vector<std::byte> encoded = encode_profile(p);
    bytes = encoded.size();
    benchmark::DoNotOptimize(encoded.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["profile_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_EncodeProfile)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

void BM_DecodeProfile(benchmark::State& state) {
  const std::vector<std::byte> encoded = encode_profile(large_profile());
  for (auto _ : state) {
    Profile decoded = decode_profile(encoded);
    benchmark::DoNotOptimize(decoded.ranks.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * encoded.size()));
}
BENCHMARK(BM_DecodeProfile)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

// What each rank does before gathering its records to the writer.
void BM_EncodeRankRecords(benchmark::State& state) {
  const RankRecords& r = large_profile().ranks.front();
  for (auto _ : state) {
    const std::vector<std::byte> encoded = encode_rank_records(r);
    benchmark::DoNotOptimize(encoded.data());
  }
}
BENCHMARK(BM_EncodeRankRecords)
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

} // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    return 1;
  }
  print_size_table();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
