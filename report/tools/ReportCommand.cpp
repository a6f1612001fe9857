// vcmon-report PROFILE: the top-down report of a vcmon profile as text, JSON or HTML, or its
// tree exported for Hatchet, speedscope or flame graphs.
// Exit status: 0 done, 1 the profile cannot be read or reported, 2 bad options.
#include "vcmon/report/FoldedStacksRenderer.hpp"
#include "vcmon/report/HatchetRenderer.hpp"
#include "vcmon/report/HtmlRenderer.hpp"
#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/ReportError.hpp"
#include "vcmon/report/SpeedscopeRenderer.hpp"
#include "vcmon/report/TextRenderer.hpp"
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/WholeFile.hpp"

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

// Renders whole before naming the file (tables::write_file_replacing), so a failed run never
// leaves half a report behind, nor writes through a link someone put in the way.
void write_output(const report::Report& report, const std::string& format, const fs::path& path) {
  std::ostringstream text;
  render(report, format, text);
  const std::string bytes = std::move(text).str();
  tables::write_file_replacing(path, std::as_bytes(std::span(bytes)), "report");
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"The top-down profile of a vcmon run: program -> procedures -> call sites -> loops "
               "-> communication statements -> partners.",
               "vcmon-report"};
  std::string profile_path;
  std::string format = "text";
  std::string output;
  std::optional<std::int32_t> rank;
  std::optional<std::uint32_t> depth;
  double threshold = 0;
  std::string site;
  app.add_option("PROFILE", profile_path, "the profile file the monitored run wrote")->required();
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
  std::error_code no_such_file;
  if (!output.empty() && fs::equivalent(output, profile_path, no_such_file)) {
    return fail(kBadOptions,
                fmt::format("-o {} is the profile itself; choose another file", output));
  }

  try {
    const tables::Profile profile = tables::read_profile_file(profile_path);
    report::Report report;
    try {
      report = report::build_report(profile, options);
    } catch (const report::ReportError& e) {
      return fail(kBadProfile, fmt::format("{}: {}", profile_path, e.what()));
    }
    if (output.empty()) {
      std::ios::sync_with_stdio(false);
      render(report, format, std::cout);
      std::cout.flush();
    } else {
      write_output(report, format, output);
    }
  } catch (const tables::ProfileError& e) {
    return fail(kBadProfile, e.what());
  } catch (const std::bad_alloc&) {
    return fail(kBadProfile,
                fmt::format("{}: out of memory while reading the profile", profile_path));
  } catch (const std::exception& e) {
    return fail(kBadProfile, e.what());
  }
  return 0;
}
