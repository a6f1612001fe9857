// One command-line convention for vcmon-report and vcmon-query (docs/report.md, "Command
// line"): the same view options, defined once; one line on stderr per problem; exit 0 done,
// 1 failure (a profile or job that cannot be read or reported, a file that cannot be written),
// 2 usage.
#pragma once

#include "vcmon/report/ReportOptions.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcmon::report::cli {

inline constexpr int kFailure = 1;
inline constexpr int kUsage = 2;

// --format: the report (text, json, html) and the exports of its tree (docs/report.md,
// "Exports").
const std::vector<std::string>& report_formats();

// What to show and where: the options both tools take.
struct ViewOptions {
  std::string format = "text";
  std::string output; // -o FILE; empty: standard output
  std::optional<std::int32_t> rank;
  std::optional<std::uint32_t> depth;
  double threshold_percent = 0;
  std::string site; // FILE:LINE, empty: every site

  // The report's filters; throws ReportError when --site is not FILE:LINE.
  ReportOptions report_options() const;
};

// Adds --format, -o/--output, --rank, --depth, --threshold and --site to `app`.
void add_view_options(CLI::App& app, ViewOptions& view);

// A tool of the command line, by the name its messages start with.
struct Tool {
  std::string_view name;

  // Prints "NAME: MESSAGE" on stderr and returns `status`.
  int fail(int status, std::string_view message) const;

  // Parses the command line. Returns an exit status when the tool is done (0 after --help or
  // --version, kUsage with one line on stderr for bad options), nothing when it goes on.
  std::optional<int> parse(CLI::App& app, int argc, char** argv) const;
};

} // namespace vcmon::report::cli
