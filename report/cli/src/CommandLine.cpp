#include "vcmon/report/cli/CommandLine.hpp"

#include <fmt/format.h>

namespace vcmon::report::cli {

const std::vector<std::string>& report_formats() {
  static const std::vector<std::string> formats = {"text",    "json",       "html",
                                                   "hatchet", "speedscope", "folded"};
  return formats;
}

ReportOptions ViewOptions::report_options() const {
  ReportOptions options;
  options.rank = rank;
  options.depth = depth;
  options.threshold_percent = threshold_percent;
  if (!site.empty()) {
    options.site = SiteSelector::parse(site);
  }
  return options;
}

void add_view_options(CLI::App& app, ViewOptions& view) {
  app.add_option("--format", view.format,
                 "text (default), json or html: the report; hatchet (Hatchet/Thicket literal "
                 "JSON), speedscope (speedscope JSON) or folded (folded stacks for "
                 "flamegraph.pl/inferno): the tree, mean over the ranks")
      ->check(CLI::IsMember(report_formats()));
  app.add_option("-o,--output", view.output,
                 "write to FILE instead of standard output (written whole, then renamed into "
                 "place)");
  app.add_option("--rank", view.rank, "only this rank's records")->check(CLI::NonNegativeNumber);
  app.add_option("--depth", view.depth, "levels shown below the program");
  app.add_option("--threshold", view.threshold_percent,
                 "hide what takes less than PCT% of the program's time")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--site", view.site, "only what is at FILE:LINE, with its callers and callees");
}

int Tool::fail(int status, std::string_view message) const {
  fmt::print(stderr, "{}: {}\n", name, message);
  return status;
}

std::optional<int> Tool::parse(CLI::App& app, int argc, char** argv) const {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(kUsage, fmt::format("{} (see --help)", e.what()));
  }
  return std::nullopt;
}

} // namespace vcmon::report::cli
