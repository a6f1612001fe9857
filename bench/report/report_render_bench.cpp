// Renders synthetic profiles of 1024 ranks x 2000 sites as text with the real vcmon-report
// and prints its wall time and peak resident memory (getrusage of the child), then the time
// of each phase in-process. Two shapes: a program whose procedures form a call tree from main
// (the report shows every site) and the tables module's random program (mostly unreachable
// from main, many partners: reading and indexing dominate). Targets (docs/report.md, "Tests and
// benchmark"): <= 2 s and <= 1 GiB. Exits 1 when one is missed.
#include "CallTreeProfile.hpp"
#include "SyntheticProfile.hpp"

#include "vcmon/report/Report.hpp"
#include "vcmon/report/TextRenderer.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr double kTargetSeconds = 2.0;
constexpr double kTargetMiB = 1024.0;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct ChildRun {
  double seconds = 0;
  double cpu_seconds = 0; // user + system: what the run costs on a machine of its own
  double peak_mib = 0;
  int status = -1;
};

// Runs vcmon-report PROFILE -o OUTPUT in a child process, so its peak memory is its own.
ChildRun run_report(const fs::path& profile, const fs::path& output) {
  const auto start = Clock::now();
  const pid_t child = ::fork();
  if (child == 0) {
    ::execl(VCMON_REPORT_BINARY, VCMON_REPORT_BINARY, profile.c_str(), "-o", output.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ChildRun run;
  int status = 0;
  rusage usage{};
  if (child < 0 || ::wait4(child, &status, 0, &usage) != child) {
    return run;
  }
  run.seconds = seconds_since(start);
  auto to_seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
  run.cpu_seconds = to_seconds(usage.ru_utime) + to_seconds(usage.ru_stime);
  run.peak_mib = static_cast<double>(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// Measures one profile; true when both targets are met.
bool measure(const char* shape, const vcmon::tables::Profile& generated, const fs::path& dir) {
  const fs::path profile_path = dir / "synthetic.vcmon", output = dir / "report.txt";
  vcmon::tables::write_profile_file(generated, profile_path);
  fmt::print("{}: {} ranks x {} sites, profile {:.1f} MiB\n", shape, generated.ranks.size(),
             generated.graph.size(),
             static_cast<double>(fs::file_size(profile_path)) / (1024.0 * 1024.0));

  const ChildRun run = run_report(profile_path, output);
  const bool met = run.status == 0 && run.seconds <= kTargetSeconds && run.peak_mib <= kTargetMiB;
  fmt::print("  vcmon-report as text: wall {:.3f} s (cpu {:.3f} s), peak RSS {:.0f} MiB, exit {} "
             "(targets <= {} s, <= {} MiB): {}\n",
             run.seconds, run.cpu_seconds, run.peak_mib, run.status, kTargetSeconds, kTargetMiB,
             met ? "met" : "MISSED");
  if (run.status == 0) {
    fmt::print("  report: {:.1f} KiB\n", static_cast<double>(fs::file_size(output)) / 1024.0);
  }

  // Where the time goes, measured in this process.
  auto start = Clock::now();
  const auto profile = vcmon::tables::read_profile_file(profile_path);
  const double read_s = seconds_since(start);
  start = Clock::now();
  const auto report = vcmon::report::build_report(profile);
  const double build_s = seconds_since(start);
  start = Clock::now();
  std::ostringstream text;
  vcmon::report::TextRenderer().render(report, text);
  const double render_s = seconds_since(start);
  fmt::print("  phases: read {:.3f} s, model {:.3f} s ({} tree nodes{}), text {:.3f} s\n", read_s,
             build_s, report.tree.size(), report.header.tree_truncated ? ", truncated" : "",
             render_s);
  return met;
}

} // namespace

int main() {
  constexpr std::int32_t kRanks = 1024;
  constexpr std::size_t kSites = 2000;
  char pattern[] = "/tmp/vcmon-report-bench-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) {
    fmt::print(stderr, "cannot create a temporary directory\n");
    return 2;
  }
  const fs::path dir = pattern;
  // Wall time depends on what else runs; the load average and cpu time put it in context.
  double load[1] = {0};
  if (::getloadavg(load, 1) == 1) {
    fmt::print("load average {:.1f} on {} cores\n", load[0], ::sysconf(_SC_NPROCESSORS_ONLN));
  }
  bool met =
      measure("call tree", vcmon::report::bench::make_call_tree_profile(kRanks, kSites, 42), dir);
  met = measure("random program",
                vcmon::tables::testing::make_synthetic_profile({kSites, kRanks, 2}, 42), dir) &&
        met;
  fs::remove_all(dir);
  return met ? 0 : 1;
}
