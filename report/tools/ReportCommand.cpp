// vcmon-report PROFILE...: the top-down report of each vcmon profile in turn, or with --merge of
// all of them as one job, as text, JSON or HTML, or its tree exported for Hatchet, speedscope or
// flame graphs. vcmon-report --diff A B: two runs compared (text, JSON or HTML).
// vcmon-report --suggest-selection PROFILE: a selection file for vcmon-instrument leaving out
// small, very frequently called procedures. docs/report.md says what each does.
// Exit status: 0 done, 1 a profile cannot be read or reported (or the output written), 2 usage.
#include "vcmon/report/DiffHtmlRenderer.hpp"
#include "vcmon/report/DiffJsonRenderer.hpp"
#include "vcmon/report/DiffTextRenderer.hpp"
#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/ProfileMerge.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/ReportDiff.hpp"
#include "vcmon/report/ReportError.hpp"
#include "vcmon/report/SelectionFileRenderer.hpp"
#include "vcmon/report/SelectionSuggestion.hpp"
#include "vcmon/report/cli/CommandLine.hpp"
#include "vcmon/report/cli/ViewOutput.hpp"
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include "vcmon/Version.h"
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <malloc.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace vcmon;
using report::cli::kFailure;
using report::cli::kUsage;

constexpr report::cli::Tool kTool{"vcmon-report"};

// A profile that cannot be read or reported: the message names the file.
class Failure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Runs `work`, turning what goes wrong reading or reporting the profile `name` into a Failure
// naming it (a ProfileError's message already does).
template <typename Work> auto failing_as(const std::string& name, Work work) {
  try {
    return work();
  } catch (const tables::ProfileError& e) {
    throw Failure(e.what());
  } catch (const report::ReportError& e) {
    throw Failure(fmt::format("{}: {}", name, e.what()));
  } catch (const std::bad_alloc&) {
    throw Failure(fmt::format("{}: out of memory while reading the profile", name));
  }
}

tables::Profile read(const std::string& path) {
  return failing_as(path, [&] { return tables::read_profile_file(path); });
}

report::Report build(const tables::Profile& profile, const std::string& name,
                     const report::ReportOptions& options) {
  return failing_as(name, [&] { return report::build_report(profile, options); });
}

// The profile read a rank at a time (with --rank, that rank's records only, through the rank
// index), each rank's calling contexts merged as it is read: a report of many ranks never holds
// every rank's contexts.
report::Report read_and_build(const std::string& path, const report::ReportOptions& options) {
  return failing_as(path, [&] {
    const tables::ProfileReader reader(path);
    return report::build_report(reader, options);
  });
}

// PROFILE...: each reported in turn, as text under a line naming its file, as JSON in one
// array of {"profile", "report"}; one profile alone as ever. Read one at a time, so memory holds
// one profile.
void report_each(const std::vector<std::string>& profiles, const report::cli::ViewOptions& view,
                 const report::ReportOptions& options) {
  const bool several = profiles.size() > 1;
  const bool json = view.format == "json";
  report::cli::write_view(
      [&](std::ostream& out) {
        if (several && json) {
          out << "[\n";
        }
        for (std::size_t i = 0; i < profiles.size(); ++i) {
          const report::Report report = read_and_build(profiles[i], options);
          if (several && json) {
            nlohmann::ordered_json entry;
            entry["profile"] = profiles[i];
            entry["report"] = report::JsonRenderer().to_json(report);
            out << entry.dump(1, ' ', false, nlohmann::json::error_handler_t::replace)
                << (i + 1 < profiles.size() ? ",\n" : "\n");
            continue;
          }
          if (several) {
            fmt::print(out, "{}==> profile {} of {}: {} <==\n", i > 0 ? "\n" : "", i + 1,
                       profiles.size(), profiles[i]);
          }
          report::cli::render_report(report, view.format, out);
        }
        if (several && json) {
          out << "]\n";
        }
      },
      view.output);
}

std::string parts_text(const report::MergedProfile& merged) {
  std::string text;
  for (const auto& part : merged.parts) {
    text += fmt::format("{}{} (ranks {}-{})", text.empty() ? "" : ", ", part.name, part.first_rank,
                        part.first_rank + part.ranks - 1);
  }
  return text;
}

report::MergedProfile merge(const std::vector<std::string>& profiles) {
  report::MergedProfile merged;
  for (const auto& path : profiles) {
    try {
      report::append_profile(merged, path, read(path));
    } catch (const report::ReportError& e) {
      throw Failure(e.what());
    }
  }
  return merged;
}

// --merge: one report of all the profiles' ranks side by side, numbered in profile order.
void report_merged(const std::vector<std::string>& profiles, const report::cli::ViewOptions& view,
                   const report::ReportOptions& options) {
  const report::MergedProfile merged = merge(profiles);
  const report::Report report = build(merged.profile, "--merge", options);
  report::cli::write_view(
      [&](std::ostream& out) {
        if (view.format == "text") {
          fmt::print(out, "merged: {} profile{} as one job of {} ranks: {}\n", merged.parts.size(),
                     merged.parts.size() == 1 ? "" : "s", merged.profile.meta.ranks,
                     parts_text(merged));
        }
        report::cli::render_report(report, view.format, out);
      },
      view.output);
}

// --diff A B: both reports built unfiltered but for --rank; --depth and --threshold filter the
// comparison (a node hidden in one run only would look absent from it).
void report_diff(const std::vector<std::string>& profiles, const report::cli::ViewOptions& view,
                 const report::ReportOptions& options, const std::string& order) {
  report::ReportOptions unfiltered;
  unfiltered.rank = options.rank;
  unfiltered.use_summary = options.use_summary;
  const report::Report a = read_and_build(profiles[0], unfiltered);
  const report::Report b = read_and_build(profiles[1], unfiltered);
  report::DiffOptions diff_options;
  diff_options.order = order == "self" ? report::DiffOrder::Self : report::DiffOrder::Inclusive;
  diff_options.depth = options.depth;
  diff_options.threshold_percent = options.threshold_percent;
  report::ReportDiff diff = report::diff_reports(a, b, diff_options);
  diff.name_a = profiles[0];
  diff.name_b = profiles[1];
  report::cli::write_view(
      [&](std::ostream& out) {
        if (view.format == "json") {
          report::DiffJsonRenderer().render(diff, out);
        } else if (view.format == "html") {
          report::DiffHtmlRenderer().render(diff, out);
        } else {
          report::DiffTextRenderer().render(diff, out);
        }
      },
      view.output);
}

// --suggest-selection: the rule applied to one profile, or to several merged as one job (their
// calls pooled, as --merge would report them).
void suggest(const std::vector<std::string>& profiles, const report::cli::ViewOptions& view,
             const report::SuggestionRule& rule) {
  const report::MergedProfile merged = merge(profiles);
  report::SelectionSuggestion suggestion;
  try {
    suggestion = report::suggest_selection(merged.profile, rule, view.rank);
  } catch (const report::ReportError& e) {
    throw Failure(fmt::format("{}: {}", profiles.size() == 1 ? profiles[0] : "--merge", e.what()));
  }
  const std::string source = profiles.size() == 1 ? profiles[0] : parts_text(merged);
  report::cli::write_view(
      [&](std::ostream& out) { report::SelectionFileRenderer().render(suggestion, source, out); },
      view.output, "selection file");
}

} // namespace

int main(int argc, char** argv) {
  // A profile's ranks are read one at a time, each into vectors of megabytes that are freed
  // before the next: with glibc's defaults each became a fresh mmap and every page a fault
  // (a third of the CPU time on 1024 ranks of 100 000 contexts, docs/evaluation.md). Kept in
  // the heap, the next rank reuses them; the peak stays what the largest rank needs.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  CLI::App app{"The top-down profile of a vcmon run: program -> procedures -> call sites -> loops "
               "-> communication statements -> partners.",
               std::string(kTool.name)};
  app.set_version_flag("--version", "vcmon-report: " VCMON_VERSION_LINE);
  std::vector<std::string> profiles;
  bool merge_flag = false;
  bool diff = false;
  std::string diff_by;
  bool suggest_flag = false;
  bool from_ranks = false;
  report::SuggestionRule rule;
  report::cli::ViewOptions view;
  app.add_option("PROFILE", profiles,
                 "the profile files monitored runs wrote, reported in turn (with --merge: as one "
                 "job; with --diff: A and B)")
      ->required();
  app.add_flag("--merge", merge_flag,
               "report the profiles as one job: their ranks side by side, numbered in the order "
               "given (the profiles must be of the same program)");
  app.add_flag("--diff", diff,
               "compare two profiles, A (before) and B (after), per tree node and statement "
               "(text, json or html)");
  app.add_option("--diff-by", diff_by,
                 "with --diff: sort by |delta| of inclusive (default) or self time")
      ->check(CLI::IsMember({"inclusive", "self"}));
  app.add_flag("--suggest-selection", suggest_flag,
               "write a selection file for vcmon-instrument that leaves out small, very "
               "frequently called procedures (see --min-calls, --max-time-per-call)");
  app.add_option("--min-calls", rule.min_calls_per_rank,
                 "with --suggest-selection: calls per rank a procedure needs at least")
      ->check(CLI::Range(1.0, 1e18))
      ->capture_default_str();
  app.add_option("--max-time-per-call", rule.max_ns_per_call,
                 "with --suggest-selection: mean virtual nanoseconds per call a procedure takes "
                 "at most")
      ->check(CLI::Range(0.0, 1e18))
      ->capture_default_str();
  app.add_flag("--from-ranks", from_ranks,
               "reduce the whole job's view from every rank's records even when the profile "
               "has a summary (the same report, read slower; a check, or a way around a "
               "damaged summary)");
  report::cli::add_view_options(app, view);
  if (const auto done = kTool.parse(app, argc, argv)) {
    return *done;
  }

  const auto given = [&](const char* option) { return app.count(option) > 0; };
  if (diff && (merge_flag || suggest_flag)) {
    return kTool.fail(kUsage,
                      "--diff compares two profiles: not with --merge or --suggest-selection");
  }
  if (diff && profiles.size() != 2) {
    return kTool.fail(kUsage, fmt::format("--diff needs two profiles, A (before) and B (after); "
                                          "got {} (see --help)",
                                          profiles.size()));
  }
  if (diff && view.format != "text" && view.format != "json" && view.format != "html") {
    return kTool.fail(kUsage,
                      fmt::format("--format {} is not available with --diff: use text, json or "
                                  "html",
                                  view.format));
  }
  if (diff && !view.site.empty()) {
    return kTool.fail(kUsage, "--site is not available with --diff");
  }
  if (!diff && !diff_by.empty()) {
    return kTool.fail(kUsage, "--diff-by needs --diff");
  }
  if (!suggest_flag && (given("--min-calls") || given("--max-time-per-call"))) {
    return kTool.fail(kUsage, "--min-calls and --max-time-per-call need --suggest-selection");
  }
  if (suggest_flag) {
    for (const char* option : {"--format", "--depth", "--threshold", "--site"}) {
      if (given(option)) {
        return kTool.fail(kUsage, fmt::format("{} is not available with --suggest-selection (it "
                                              "writes a selection file; --rank and -o apply)",
                                              option));
      }
    }
  }
  if (!diff && !merge_flag && !suggest_flag && profiles.size() > 1 && view.format != "text" &&
      view.format != "json") {
    return kTool.fail(kUsage,
                      fmt::format("--format {} shows one report: give one profile, or --merge "
                                  "to report several as one job (several profiles in turn: "
                                  "text or json)",
                                  view.format));
  }

  report::ReportOptions options;
  try {
    options = view.report_options();
  } catch (const report::ReportError& e) {
    return kTool.fail(kUsage, e.what());
  }
  options.use_summary = !from_ranks;
  // equivalent() is false, with an error code, when either file does not exist.
  for (const auto& profile_path : profiles) {
    std::error_code no_such_file;
    if (!view.output.empty() && fs::equivalent(view.output, profile_path, no_such_file)) {
      return kTool.fail(
          kUsage, fmt::format("-o {} is the profile itself; choose another file", view.output));
    }
  }

  try {
    if (diff) {
      report_diff(profiles, view, options, diff_by);
    } else if (suggest_flag) {
      suggest(profiles, view, rule);
    } else if (merge_flag) {
      report_merged(profiles, view, options);
    } else {
      report_each(profiles, view, options);
    }
  } catch (const Failure& e) {
    return kTool.fail(kFailure, e.what());
  } catch (const std::bad_alloc&) {
    return kTool.fail(kFailure, "out of memory while writing the report");
  } catch (const std::exception& e) {
    return kTool.fail(kFailure, e.what());
  }
  return 0;
}
