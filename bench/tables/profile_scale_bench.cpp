// A synthetic profile of many ranks written through the writer's own pieces and read back one
// rank at a time (docs/evaluation.md, "Profiles at scale"). One step per process, so that each
// step's peak RSS is its own; bench/tables/profile_scale.sh runs the steps (and vcmon-report on
// the file) and prints the table.
//   bench_profile_scale write DIR RANKS SITES   writes DIR/scale.vcmon as the runtime does: every
//       rank's records encoded for its index entry, rank 0's head and index, then each rank's
//       records at its offset (regenerated: the writer never holds two ranks' records), and the
//       job's summary, reduced by the runtime's code (tables::SummaryReduction) a rank at a time
//       in rank order, which gives what the runtime's binomial tree gives (JobSummaryTest)
//   bench_profile_scale rank FILE RANK          opens the file and reads that rank's records
//   bench_profile_scale scan FILE               reads every rank, one at a time, summing each
//       site's time over ranks (what a whole-job view needs)
// Each prints one line: step=... seconds=... rss_kib=... [bytes=...] [records=...].
#include "SyntheticProfile.hpp"

#include "vcmon/tables/JobSummary.hpp"
#include "vcmon/tables/ProfileParts.hpp"
#include "vcmon/tables/ProfileReader.hpp"
#include "vcmon/tables/WholeFile.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace {

using namespace vcmon::tables;
using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kSeed = 20261126;
constexpr std::int32_t kPartners = 2;

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int write_profile(const std::filesystem::path& dir, std::int32_t ranks, std::size_t sites) {
  const auto start = Clock::now();
  const testing::ProfileShape shape{.sites = sites, .ranks = ranks, .partners = kPartners};
  const ProgramGraph graph = testing::make_synthetic_graph(sites, kSeed);
  RunMetadata meta;
  meta.command = "synthetic";
  meta.ranks = ranks;
  meta.hosts = {"node0"};
  std::vector<RankSectionSize> sections;
  sections.reserve(static_cast<std::size_t>(ranks));
  SummaryReduction summary(graph, ranks);
  for (std::int32_t r = 0; r < ranks; ++r) {
    const RankRecords records = testing::make_synthetic_rank(graph, shape, r, kSeed);
    sections.push_back(rank_section_size(r, encode_rank_records(records)));
    if (const auto problem = summary.add_rank(records)) {
      throw std::runtime_error(*problem);
    }
  }
  summary.begin_other_partners(summary.other_partners_needed());
  IncompleteFile file(dir / "scale.vcmon", "profile");
  // The head's size does not depend on where it places the summary: ranks go first, the head
  // once the summary's size is known.
  const std::uint64_t head_size = encode_profile_head(meta, graph, sections, {}).size();
  const std::vector<std::byte> index = encode_rank_index(head_size, sections);
  std::uint64_t offset = head_size + index.size();
  for (std::int32_t r = 0; r < ranks; ++r) {
    const RankRecords records = testing::make_synthetic_rank(graph, shape, r, kSeed);
    const std::vector<std::byte> encoded = encode_rank_records(records);
    file.write_at(offset, encoded);
    offset += encoded.size();
    summary.add_other_partners(records);
  }
  const std::vector<std::byte> encoded_summary = encode_job_summary(summary.whole_job());
  file.write_at(offset, encoded_summary);
  offset += encoded_summary.size();
  file.write_at(0,
                encode_profile_head(meta, graph, sections, summary_section_size(encoded_summary)));
  file.write_at(head_size, index);
  file.finish();
  file.name_replacing(dir / "scale.vcmon");
  std::printf("step=write ranks=%d sites=%zu seconds=%.2f rss_kib=%ld bytes=%llu "
              "summary_bytes=%zu\n",
              ranks, sites, seconds_since(start), peak_rss_kib(),
              static_cast<unsigned long long>(offset), encoded_summary.size());
  return 0;
}

int read_one_rank(const std::filesystem::path& path, std::int32_t rank) {
  const auto start = Clock::now();
  const ProfileReader reader(path);
  const std::optional<RankRecords> records = reader.read_rank(rank);
  if (!records) {
    std::fprintf(stderr, "rank %d is not in %s\n", rank, path.c_str());
    return 1;
  }
  const testing::ProfileShape shape{
      .sites = reader.graph().size(), .ranks = reader.meta().ranks, .partners = kPartners};
  const bool same = *records == testing::make_synthetic_rank(reader.graph(), shape, rank, kSeed);
  std::printf("step=rank seconds=%.3f rss_kib=%ld records=%zu same=%d\n", seconds_since(start),
              peak_rss_kib(), records->procs.size() + records->loops.size() + records->coms.size(),
              same ? 1 : 0);
  return same ? 0 : 1;
}

int scan_every_rank(const std::filesystem::path& path) {
  const auto start = Clock::now();
  const ProfileReader reader(path);
  std::vector<std::uint64_t> site_time(reader.graph().size());
  std::size_t records = 0;
  for (std::size_t i = 0; i < reader.rank_count(); ++i) {
    const RankRecords r = reader.read_rank_at(i);
    for (const ProcRecord& p : r.procs) {
      site_time[p.proc] += p.time_ns;
    }
    for (const LoopRecord& l : r.loops) {
      site_time[l.loop] += l.time_ns;
    }
    for (const ComRecord& c : r.coms) {
      site_time[c.comm] += c.transmission_ns + c.sync_delay_ns;
    }
    records += r.procs.size() + r.loops.size() + r.coms.size();
  }
  std::printf("step=scan seconds=%.2f rss_kib=%ld records=%zu\n", seconds_since(start),
              peak_rss_kib(), records);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  const std::string step = argc > 1 ? argv[1] : "";
  try {
    if (step == "write" && argc == 5) {
      return write_profile(argv[2], std::atoi(argv[3]),
                           static_cast<std::size_t>(std::atol(argv[4])));
    }
    if (step == "rank" && argc == 4) {
      return read_one_rank(argv[2], std::atoi(argv[3]));
    }
    if (step == "scan" && argc == 3) {
      return scan_every_rank(argv[2]);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
  std::fprintf(stderr, "usage: %s write DIR RANKS SITES | rank FILE RANK | scan FILE\n", argv[0]);
  return 2;
}
