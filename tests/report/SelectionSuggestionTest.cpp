// vcmon-report --suggest-selection: the rule on figure 12 with p4 made small and very frequent,
// what stays instrumented and why, the file written and the binary's options.
#include "ReportCommandRun.hpp"
#include "ReportProfiles.hpp"
#include "TempDir.hpp"

#include "vcmon/report/SelectionFileRenderer.hpp"
#include "vcmon/report/SelectionSuggestion.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace vcmon::report {
namespace {

using testing::CommandResult;

tables::Profile frequent_p4(std::uint64_t calls) {
  return testing::figure12_frequent_p4(calls);
}

std::vector<std::string> names(const std::vector<SuggestedProcedure>& procedures) {
  std::vector<std::string> out;
  for (const auto& p : procedures) {
    out.push_back(p.name);
  }
  return out;
}

TEST(SelectionSuggestion, SmallFrequentLeafIsSuggested) {
  const testing::TempDir dir;
  const auto suggestion = suggest_selection(dir.round_trip(frequent_p4(1'000'000)), {});
  EXPECT_EQ(suggestion.ranks, 4);
  ASSERT_EQ(names(suggestion.exclude), std::vector<std::string>{"p4"});
  const auto& p4 = suggestion.exclude.front();
  EXPECT_DOUBLE_EQ(p4.calls_per_rank, 1'000'002); // both call sites
  // (50 + 600) us x mean scale 1.15 over 1 000 002 calls.
  EXPECT_NEAR(p4.ns_per_call, 650e3 * 1.15 / 1'000'002, 1e-3);
  EXPECT_TRUE(suggestion.kept.empty());
}

TEST(SelectionSuggestion, TheRuleIsBothBounds) {
  const testing::TempDir dir;
  const auto profile = dir.round_trip(frequent_p4(1'000'000));
  SuggestionRule few_calls;
  few_calls.min_calls_per_rank = 2'000'000; // p4 is called 1 000 002 times per rank
  EXPECT_TRUE(suggest_selection(profile, few_calls).exclude.empty());
  SuggestionRule fast;
  fast.max_ns_per_call = 0.5; // p4 takes about 0.75 ns per call
  EXPECT_TRUE(suggest_selection(profile, fast).exclude.empty());
  // The unchanged figure 12: p4's 202 calls per rank are too few.
  EXPECT_TRUE(suggest_selection(dir.round_trip(testing::figure12_profile()), {}).exclude.empty());
}

// Every procedure meets a rule this loose; only p4 may go: main is main, p3 holds MPI calls,
// p1 and p2 call p3, which stays.
TEST(SelectionSuggestion, WhatStaysAndWhy) {
  const testing::TempDir dir;
  SuggestionRule loose;
  loose.min_calls_per_rank = 1;
  loose.max_ns_per_call = 1e12;
  const auto suggestion = suggest_selection(dir.round_trip(frequent_p4(1'000'000)), loose);
  EXPECT_EQ(names(suggestion.exclude), std::vector<std::string>{"p4"});
  std::map<std::string, std::string> why;
  for (const auto& k : suggestion.kept) {
    why[k.procedure.name] = k.reason;
  }
  ASSERT_EQ(why.size(), 4u);
  EXPECT_EQ(why["main"], "main");
  EXPECT_EQ(why["p3"], "holds MPI_Send at fig12.c:9");
  EXPECT_EQ(why["p1"], "calls p3 (fig12.c:8), which stays instrumented");
  EXPECT_EQ(why["p2"], "calls p3 (fig12.c:8), which stays instrumented");
}

// main -> apply, which calls through a pointer: its callee is known at run time only, so apply
// stays although it is small and frequent.
TEST(SelectionSuggestion, CallerThroughAPointerStays) {
  tables::Profile profile;
  profile.meta.command = "./apply";
  profile.meta.ranks = 1;
  auto& g = profile.graph;
  using tables::SiteKind;
  const auto none = tables::kNoSite;
  const auto main_proc = g.add_site(SiteKind::Procedure, {"apply.c", 1, 5}, "main", none, "main");
  const auto call = g.add_site(SiteKind::Call, {"apply.c", 2, 3}, "apply", main_proc, "apply");
  const auto apply = g.add_site(SiteKind::Procedure, {"apply.c", 5, 6}, "apply", none, "apply");
  g.add_site(SiteKind::Call, {"apply.c", 6, 10}, "f", apply, ""); // f(x): a pointer
  tables::RankRecords rank;
  rank.virtual_ns = 2'000'000;
  rank.real_ns = 2'000'000;
  rank.procs = {{main_proc, none, 2'000'000, 1}, {apply, call, 1'000'000, 1'000'000}};
  profile.ranks.push_back(rank);
  const testing::TempDir dir;
  const auto suggestion = suggest_selection(dir.round_trip(profile), {});
  EXPECT_TRUE(suggestion.exclude.empty());
  ASSERT_EQ(suggestion.kept.size(), 1u);
  EXPECT_EQ(suggestion.kept[0].procedure.name, "apply");
  EXPECT_EQ(suggestion.kept[0].reason,
            "calls through a pointer at apply.c:6 (the callee may stay instrumented)");
}

TEST(SelectionSuggestion, RankCountsOnlyThatRank) {
  const testing::TempDir dir;
  const auto suggestion = suggest_selection(dir.round_trip(frequent_p4(1'000'000)), {}, 3);
  EXPECT_EQ(suggestion.ranks, 1);
  ASSERT_EQ(suggestion.exclude.size(), 1u);
  EXPECT_NEAR(suggestion.exclude[0].ns_per_call, 650e3 * 1.3 / 1'000'002, 1e-3);
  EXPECT_THROW(suggest_selection(dir.round_trip(frequent_p4(10)), {}, 9), std::exception);
}

TEST(SelectionSuggestion, FileHasOneExcludeListWithCommentLinesOnly) {
  const testing::TempDir dir;
  std::ostringstream out;
  SelectionFileRenderer().render(suggest_selection(dir.round_trip(frequent_p4(1'000'000)), {}),
                                 "fig12.vcmon", out);
  const std::string text = out.str();
  EXPECT_NE(text.find("\nBEGIN_EXCLUDE_LIST\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\np4\nEND_EXCLUDE_LIST\n"), std::string::npos) << text;
  // Every other line is empty or a whole-line comment, the only comments the parser knows.
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_TRUE(line.empty() || line[0] == '#' || line == "BEGIN_EXCLUDE_LIST" ||
                line == "END_EXCLUDE_LIST" || line == "p4")
        << line;
  }
}

TEST(SelectionSuggestion, CommandWritesTheFileAndChecksItsOptions) {
  const testing::TempDir dir;
  const auto profile = dir / "fig12.vcmon";
  tables::write_profile_file(frequent_p4(1'000'000), profile);
  const auto selection = dir / "sel.txt";
  const CommandResult r = testing::run_report(
      dir.path(), "--suggest-selection " + profile.string() + " -o " + selection.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(testing::slurp(selection).find("\np4\nEND_EXCLUDE_LIST\n"), std::string::npos);
  const CommandResult strict = testing::run_report(
      dir.path(), "--suggest-selection " + profile.string() + " --max-time-per-call 0.1");
  ASSERT_EQ(strict.status, 0) << strict.err;
  EXPECT_NE(strict.out.find("BEGIN_EXCLUDE_LIST\n# (no procedure meets the rule)\nEND_"),
            std::string::npos)
      << strict.out;
  for (const char* bad : {" --suggest-selection --depth 2", " --suggest-selection --format json",
                          " --min-calls 5", " --suggest-selection --diff"}) {
    const CommandResult usage = testing::run_report(dir.path(), profile.string() + bad);
    EXPECT_EQ(usage.status, 2) << bad << usage.err;
    EXPECT_EQ(std::count(usage.err.begin(), usage.err.end(), '\n'), 1) << usage.err;
  }
}

} // namespace
} // namespace vcmon::report
