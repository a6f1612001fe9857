// vcmon-report PROFILE: the top-down report of a vcmon profile as text, JSON or HTML, or its
// tree exported for Hatchet, speedscope or flame graphs. vcmon-report --diff A B: two runs
// compared, as text or JSON (docs/report.md, "Comparing two runs").
// Exit status: 0 done, 1 the profile cannot be read or reported, 2 bad options.
#include "vcmon/report/DiffJsonRenderer.hpp"
#include "vcmon/report/DiffTextRenderer.hpp"
#include "vcmon/report/FoldedStacksRenderer.hpp"
#include "vcmon/report/HatchetRenderer.hpp"
#include "vcmon/report/HtmlRenderer.hpp"
#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/ReportDiff.hpp"
#include "vcmon/report/ReportError.hpp"
#include "vcmon/report/SpeedscopeRenderer.hpp"
#include "vcmon/report/TextRenderer.hpp"
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/WholeFile.hpp"

#include "vcmon/Version.h"
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace vcmon;

constexpr int kBadProfile = 1;
constexpr int kBadOptions = 2;

// --format: the report (text, json, html) and the exports of its tree (docs/report.md,
// "Exports").
const std::vector<std::string> kFormats = {"text",    "json",       "html",
                                           "hatchet", "speedscope", "folded"};

// One line on stderr, the way every problem is reported.
int fail(int status, const std::string& message) {
  fmt::print(stderr, "vcmon-report: {}\n", message);
  return status;
}

void render(const report::Report& report, const std::string& format, std::ostream& out) {
  if (format == "json") {
    report::JsonRenderer().render(report, out);
  } else if (format == "html") {
    report::HtmlRenderer().render(report, out);
  } else if (format == "hatchet") {
    report::HatchetRenderer().render(report, out);
  } else if (format == "speedscope") {
    report::SpeedscopeRenderer().render(report, out);
  } else if (format == "folded") {
    report::FoldedStacksRenderer().render(report, out);
  } else {
    report::TextRenderer().render(report, out);
  }
}

void render(const report::ReportDiff& diff, const std::string& format, std::ostream& out) {
  if (format == "json") {
    report::DiffJsonRenderer().render(diff, out);
  } else {
    report::DiffTextRenderer().render(diff, out);
  }
}

// Renders whole before naming the file (tables::write_file_replacing), so a failed run never
// leaves half a report behind, nor writes through a link someone put in the way.
template <typename Model>
void write_output(const Model& model, const std::string& format, const fs::path& path) {
  std::ostringstream text;
  render(model, format, text);
  const std::string bytes = std::move(text).str();
  tables::write_file_replacing(path, std::as_bytes(std::span(bytes)), "report");
}

template <typename Model>
void emit(const Model& model, const std::string& format, const std::string& output) {
  if (output.empty()) {
    std::ios::sync_with_stdio(false);
    render(model, format, std::cout);
    std::cout.flush();
  } else {
    write_output(model, format, output);
  }
}

// Reads and reports one profile; returns the exit status, 0 when `report` holds it.
int load(const std::string& path, const report::ReportOptions& options, report::Report& report) {
  try {
    const tables::Profile profile = tables::read_profile_file(path);
    try {
      report = report::build_report(profile, options);
    } catch (const report::ReportError& e) {
      return fail(kBadProfile, fmt::format("{}: {}", path, e.what()));
    }
  } catch (const tables::ProfileError& e) {
    return fail(kBadProfile, e.what());
  } catch (const std::bad_alloc&) {
    return fail(kBadProfile, fmt::format("{}: out of memory while reading the profile", path));
  }
  return 0;
}

// --diff A B: both reports built unfiltered but for --rank; --depth and --threshold filter the
// comparison (a node hidden in one run only would look absent from it).
int run_diff(const std::vector<std::string>& profiles, const report::ReportOptions& options,
             const std::string& order, const std::string& format, const std::string& output) {
  report::ReportOptions unfiltered;
  unfiltered.rank = options.rank;
  report::Report a, b;
  if (const int status = load(profiles[0], unfiltered, a); status != 0) {
    return status;
  }
  if (const int status = load(profiles[1], unfiltered, b); status != 0) {
    return status;
  }
  report::DiffOptions diff_options;
  diff_options.order = order == "self" ? report::DiffOrder::Self : report::DiffOrder::Inclusive;
  diff_options.depth = options.depth;
  diff_options.threshold_percent = options.threshold_percent;
  report::ReportDiff diff = report::diff_reports(a, b, diff_options);
  diff.name_a = profiles[0];
  diff.name_b = profiles[1];
  emit(diff, format, output);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"The top-down profile of a vcmon run: program -> procedures -> call sites -> loops "
               "-> communication statements -> partners.",
               "vcmon-report"};
  app.set_version_flag("--version", "vcmon-report: " VCMON_VERSION_LINE);
  std::vector<std::string> profiles;
  bool diff = false;
  std::string diff_by;
  std::string format = "text";
  std::string output;
  std::optional<std::int32_t> rank;
  std::optional<std::uint32_t> depth;
  double threshold = 0;
  std::string site;
  app.add_option("PROFILE", profiles,
                 "the profile file the monitored run wrote (with --diff: A and B)")
      ->required();
  app.add_flag("--diff", diff,
               "compare two profiles, A (before) and B (after), per tree node and statement "
               "(text or json)");
  app.add_option("--diff-by", diff_by,
                 "with --diff: sort by |delta| of inclusive (default) or self time")
      ->check(CLI::IsMember({"inclusive", "self"}));
  app.add_option("--format", format,
                 "text (default), json or html: the report; hatchet (Hatchet/Thicket literal "
                 "JSON), speedscope (speedscope JSON) or folded (folded stacks for "
                 "flamegraph.pl/inferno): the tree, mean over the ranks")
      ->check(CLI::IsMember(kFormats));
  app.add_option("-o,--output", output, "write the report to FILE instead of standard output");
  app.add_option("--rank", rank, "only this rank's records")->check(CLI::NonNegativeNumber);
  app.add_option("--depth", depth, "levels shown below the program");
  app.add_option("--threshold", threshold, "hide what takes less than PCT% of the program's time")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--site", site, "only what is at FILE:LINE, with its callers and callees");
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(kBadOptions, fmt::format("{} (see --help)", e.what()));
  }

  if (diff && profiles.size() != 2) {
    return fail(kBadOptions, fmt::format("--diff needs two profiles, A (before) and B (after); "
                                         "got {} (see --help)",
                                         profiles.size()));
  }
  if (!diff && profiles.size() != 1) {
    return fail(kBadOptions, fmt::format("expected one PROFILE, got {}; to compare two runs use "
                                         "--diff A B (see --help)",
                                         profiles.size()));
  }
  if (diff && format != "text" && format != "json") {
    return fail(kBadOptions,
                fmt::format("--format {} is not available with --diff: use text or json", format));
  }
  if (diff && !site.empty()) {
    return fail(kBadOptions, "--site is not available with --diff");
  }
  if (!diff && !diff_by.empty()) {
    return fail(kBadOptions, "--diff-by needs --diff");
  }

  report::ReportOptions options;
  options.rank = rank;
  options.depth = depth;
  options.threshold_percent = threshold;
  try {
    if (!site.empty()) {
      options.site = report::SiteSelector::parse(site);
    }
  } catch (const report::ReportError& e) {
    return fail(kBadOptions, e.what());
  }
  // equivalent() is false, with an error code, when either file does not exist.
  for (const auto& profile_path : profiles) {
    std::error_code no_such_file;
    if (!output.empty() && fs::equivalent(output, profile_path, no_such_file)) {
      return fail(kBadOptions,
                  fmt::format("-o {} is the profile itself; choose another file", output));
    }
  }

  try {
    if (diff) {
      return run_diff(profiles, options, diff_by, format, output);
    }
    report::Report report;
    if (const int status = load(profiles[0], options, report); status != 0) {
      return status;
    }
    emit(report, format, output);
  } catch (const std::bad_alloc&) {
    return fail(kBadProfile, "out of memory while writing the report");
  } catch (const std::exception& e) {
    return fail(kBadProfile, e.what());
  }
  return 0;
}
