// vcmon-query [JOB]: the running vcmon jobs of this user on this node, or the live top-down
// report of one of them, read from the segments its ranks publish (docs/query.md). The view
// options (--format, -o, --rank, --depth, --threshold, --site) are vcmon-report's.
// Exit status: 0 done, 1 no such job, a segment cannot be read or the output written, 2 usage.
#include "LiveJobs.hpp"

#include "vcmon/report/Report.hpp"
#include "vcmon/report/ReportError.hpp"
#include "vcmon/report/cli/CommandLine.hpp"
#include "vcmon/report/cli/ViewOutput.hpp"
#include "vcmon/tables/LiveSegment.hpp"

#include "vcmon/Version.h"
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <iostream>
#include <optional>
#include <thread>
#include <unistd.h>

namespace {

using namespace vcmon;

using report::cli::kFailure;
using report::cli::kUsage;

constexpr report::cli::Tool kTool{"vcmon-query"};

std::int64_t unix_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string age(std::int64_t since_unix_ns) {
  const double seconds = static_cast<double>(unix_now_ns() - since_unix_ns) * 1e-9;
  return seconds < 120 ? fmt::format("{:.1f} s", seconds) : fmt::format("{:.1f} min", seconds / 60);
}

// The listing, to standard output or -o FILE.
int list(std::uint32_t uid, const std::string& output) {
  std::vector<std::string> problems;
  const std::vector<query::LiveJobSummary> jobs = query::list_jobs(uid, problems);
  for (const std::string& problem : problems) {
    fmt::print(stderr, "vcmon-query: skipped: {}\n", problem);
  }
  if (jobs.empty()) {
    return kTool.fail(kFailure, "no running vcmon job of this user on this node");
  }
  try {
    report::cli::write_view(
        [&](std::ostream& out) {
          fmt::print(out, "{:>10}  {:>11}  {:<24}  {}\n", "job", "ranks here", "program", "age");
          for (const query::LiveJobSummary& job : jobs) {
            fmt::print(out, "{:>10}  {:>11}  {:<24}  {}\n", job.job,
                       fmt::format("{} of {}", job.published, job.ranks), job.program,
                       age(job.start_unix_ns));
          }
        },
        output, "listing");
  } catch (const std::exception& error) {
    return kTool.fail(kFailure, error.what());
  }
  return 0;
}

// One view of the job; false when the job has ended, or it cannot be read or reported.
bool show(std::uint32_t uid, std::uint64_t job, const report::cli::ViewOptions& view,
          const report::ReportOptions& options, int& status) {
  query::LiveProfile live;
  report::Report report;
  try {
    live = query::read_job(uid, job);
    report = report::build_report(live.profile, options);
  } catch (const std::exception& error) {
    status = kTool.fail(kFailure, error.what());
    return false;
  }
  try {
    report::cli::write_view(
        [&](std::ostream& out) {
          if (view.format == "text") {
            fmt::print(out, "live: job {} ({}), {} of {} ranks on this node, published {} ago\n",
                       job, live.profile.meta.command, live.published, live.profile.meta.ranks,
                       age(live.oldest_publication_ns));
          }
          report::cli::render_report(report, view.format, out);
        },
        view.output);
  } catch (const std::exception& error) {
    status = kTool.fail(kFailure, error.what());
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"The running vcmon jobs of this user on this node (no JOB), or the live top-down "
               "report of one of them.",
               "vcmon-query"};
  app.set_version_flag("--version", "vcmon-query: " VCMON_VERSION_LINE);
  std::optional<std::uint64_t> job;
  report::cli::ViewOptions view;
  double watch = 0;
  std::optional<unsigned> count;
  app.add_option("JOB", job, "a job id as listed (MPI_COMM_WORLD rank 0's pid)")
      ->check(CLI::Validator(
          [](const std::string& text) {
            const bool digits =
                !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
            return digits ? std::string() : "a job id is a number, not " + text;
          },
          "JOB"));
  report::cli::add_view_options(app, view);
  app.add_option("--watch", watch,
                 "show the report again every SECONDS until the job ends (with -o: rewrite the "
                 "file)")
      ->check(CLI::Range(0.1, 86400.0));
  app.add_option("--count", count, "with --watch: stop after this many views")
      ->check(CLI::PositiveNumber);
  if (const auto done = kTool.parse(app, argc, argv)) {
    return *done;
  }
  report::ReportOptions options;
  try {
    options = view.report_options();
  } catch (const report::ReportError& e) {
    return kTool.fail(kUsage, e.what());
  }
  if (!job) {
    for (const char* option :
         {"--format", "--rank", "--depth", "--threshold", "--site", "--watch", "--count"}) {
      if (app.count(option) > 0) {
        return kTool.fail(kUsage,
                          fmt::format("{} needs a JOB (vcmon-query alone lists the jobs; see "
                                      "--help)",
                                      option));
      }
    }
  }

  const auto uid = static_cast<std::uint32_t>(::getuid());
  // Segments of ranks that died without removing them (a crash, a kill).
  for (const std::string& name : tables::remove_stale_live_segments(uid)) {
    fmt::print(stderr, "vcmon-query: removed stale segment {} (its process is gone)\n", name);
  }
  if (!job) {
    return list(uid, view.output);
  }
  int status = 0;
  for (unsigned shown = 0;;) {
    if (!show(uid, *job, view, options, status)) {
      // A watched job that ended after at least one view ended normally.
      return shown > 0 ? 0 : status;
    }
    ++shown;
    if (watch <= 0 || (count && shown >= *count)) {
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(watch));
    if (view.output.empty()) {
      fmt::print("\n");
    }
  }
}
