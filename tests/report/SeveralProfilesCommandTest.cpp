// vcmon-report with several profiles through the real binary: each reported in turn under a
// line naming its file, or with --merge as one job; profiles of two programs refused.
#include "ReportCommandRun.hpp"
#include "ReportProfiles.hpp"
#include "TempDir.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace vcmon::report {
namespace {

namespace fs = std::filesystem;

using testing::CommandResult;
using testing::expect_one_line;

class SeveralProfiles : public ::testing::Test {
protected:
  SeveralProfiles() : a(dir / "a.vcmon"), b(dir / "b.vcmon"), fact(dir / "fact.vcmon") {
    tables::write_profile_file(testing::figure12_profile(), a);
    tables::write_profile_file(testing::figure12_profile(), b);
    tables::write_profile_file(testing::factorial_profile(), fact);
  }

  CommandResult run(const std::string& arguments) const {
    return testing::run_report(dir.path(), arguments);
  }

  testing::TempDir dir;
  fs::path a, b, fact;
};

TEST_F(SeveralProfiles, TextReportsEachUnderItsFileName) {
  const CommandResult r = run(a.string() + " " + fact.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto first = r.out.find("==> profile 1 of 2: " + a.string() + " <==\n");
  const auto second = r.out.find("==> profile 2 of 2: " + fact.string() + " <==\n");
  ASSERT_EQ(first, 0u) << r.out;
  ASSERT_NE(second, std::string::npos) << r.out;
  // Each report whole after its line: figure 12's command before the second line, fact's after.
  EXPECT_LT(r.out.find("./fig12"), second);
  EXPECT_GT(r.out.find("./fact 10"), second);
  // The same bytes with -o.
  const auto file = dir / "both.txt";
  ASSERT_EQ(run(a.string() + " " + fact.string() + " -o " + file.string()).status, 0);
  EXPECT_EQ(testing::slurp(file), r.out);
}

TEST_F(SeveralProfiles, JsonIsOneArrayNamingEachProfile) {
  const CommandResult r = run(a.string() + " " + fact.string() + " --format json --rank 0");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["profile"], a.string());
  EXPECT_EQ(j[0]["report"]["header"]["command"], "./fig12");
  EXPECT_EQ(j[0]["report"]["header"]["ranks_reported"], 1); // --rank applies to each
  EXPECT_EQ(j[1]["profile"], fact.string());
  EXPECT_EQ(j[1]["report"]["header"]["command"], "./fact 10");
}

TEST_F(SeveralProfiles, MergeReportsOneJobInProfileOrder) {
  const CommandResult r = run("--merge " + a.string() + " " + b.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("merged: 2 profiles as one job of 8 ranks: " + a.string() +
                            " (ranks 0-3), " + b.string() + " (ranks 4-7)\n",
                        0),
            0u)
      << r.out;
  const CommandResult j = run("--merge " + a.string() + " " + b.string() + " --format json");
  ASSERT_EQ(j.status, 0) << j.err;
  const auto report = nlohmann::json::parse(j.out);
  EXPECT_EQ(report["header"]["ranks"], 8);
  EXPECT_EQ(report["header"]["ranks_reported"], 8);
  EXPECT_EQ(report["time_split"]["ranks"].size(), 8u);
  // --rank in the merged numbering: rank 7 is b's rank 3, whose e1 sends to b's rank 0 (4).
  const CommandResult r7 =
      run("--merge " + a.string() + " " + b.string() + " --format json --rank 7");
  ASSERT_EQ(r7.status, 0) << r7.err;
  const auto cells = nlohmann::json::parse(r7.out)["matrix"]["cells"];
  ASSERT_FALSE(cells.empty());
  bool sends_to_4 = false;
  for (const auto& cell : cells) {
    EXPECT_EQ(cell["rank"], 7);
    sends_to_4 = sends_to_4 || cell["partner"] == 4;
  }
  EXPECT_TRUE(sends_to_4) << cells.dump();
  expect_one_line(run("--merge " + a.string() + " " + b.string() + " --rank 8"), 1,
                  "rank 8 is not in the profile");
}

TEST_F(SeveralProfiles, MergeRefusesAnotherProgram) {
  expect_one_line(run("--merge " + a.string() + " " + fact.string()), 1,
                  fact.string() + " is not of the same program as " + a.string());
}

TEST_F(SeveralProfiles, BadProfileAmongThemIsNamed) {
  const auto missing = dir / "missing.vcmon";
  const CommandResult r = run("--merge " + a.string() + " " + missing.string());
  expect_one_line(r, 1, missing.string());
  // Reported in turn: the first report is out before the second file fails.
  const CommandResult each = run(a.string() + " " + missing.string());
  EXPECT_EQ(each.status, 1);
  EXPECT_NE(each.out.find("==> profile 1 of 2"), std::string::npos);
  EXPECT_NE(each.err.find(missing.string()), std::string::npos) << each.err;
  // With -o nothing is written.
  const auto file = dir / "out.txt";
  EXPECT_EQ(run(a.string() + " " + missing.string() + " -o " + file.string()).status, 1);
  EXPECT_FALSE(fs::exists(file));
}

TEST_F(SeveralProfiles, OneReportFormatsNeedOneProfileOrMerge) {
  expect_one_line(run(a.string() + " " + b.string() + " --format html"), 2, "--merge");
  expect_one_line(run(a.string() + " " + b.string() + " --format folded"), 2, "--merge");
  const CommandResult html = run("--merge " + a.string() + " " + b.string() + " --format folded");
  EXPECT_EQ(html.status, 0) << html.err;
}

// The convention vcmon-report shares with vcmon-query: --help (0), usage errors (2).
TEST_F(SeveralProfiles, HelpListsTheSharedOptions) {
  const CommandResult r = run("--help");
  EXPECT_EQ(r.status, 0);
  for (const char* option : {"--format", "--output", "--rank", "--depth", "--threshold", "--site",
                             "--merge", "--diff", "--suggest-selection", "--version"}) {
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  }
  expect_one_line(run("--no-such-option " + a.string()), 2, "(see --help)");
  expect_one_line(run(a.string() + " --site nocolon"), 2, "not FILE:LINE");
}

} // namespace
} // namespace vcmon::report
