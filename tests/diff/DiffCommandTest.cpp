// vcmon-report --diff A B through the real binary: its output and its exit status for bad usage
// and bad profiles.
#include "DiffProfiles.hpp"
#include "ReportCommandRun.hpp"
#include "ReportProfiles.hpp"
#include "TempDir.hpp"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace vcmon::report {
namespace {

namespace fs = std::filesystem;

using testing::CommandResult;

class DiffCommand : public ::testing::Test {
protected:
  DiffCommand() : a(dir / "before.vcmon"), b(dir / "after.vcmon") {
    tables::write_profile_file(testing::figure12_profile(), a);
    tables::write_profile_file(testing::figure12_slow_p4(3), b);
  }

  CommandResult run(const std::string& arguments) const {
    return testing::run_report(dir.path(), arguments);
  }

  static void expect_one_line(const CommandResult& r, int status, const std::string& problem) {
    EXPECT_EQ(r.status, status) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("vcmon-report: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
  }

  testing::TempDir dir;
  fs::path a, b;
};

TEST_F(DiffCommand, TextRanksTheSlowerProcedureFirstBySelfTime) {
  const CommandResult r = run("--diff " + a.string() + " " + b.string() + " --diff-by self");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("Comparing A = " + a.string()), std::string::npos) << r.out;
  // The first row after the column titles is p4 in loop2 along p2, 3x slower.
  const auto titles = r.out.find("self delta");
  ASSERT_NE(titles, std::string::npos) << r.out;
  const auto row_start = r.out.find('\n', titles) + 1;
  const std::string row = r.out.substr(row_start, r.out.find('\n', row_start) - row_start);
  EXPECT_NE(row.find("3.00x"), std::string::npos) << row;
  EXPECT_NE(row.find("> loop@fig12.c:13 > p4@fig12.c:14"), std::string::npos) << row;
  EXPECT_NE(row.find("p2@fig12.c:3"), std::string::npos) << row;
}

TEST_F(DiffCommand, JsonParsesAndFollowsTheFilters) {
  const CommandResult r =
      run("--diff " + a.string() + " " + b.string() + " --format json --depth 2 --rank 3");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["a"]["ranks_reported"], 1);
  EXPECT_EQ(j["depth"], 2);
  ASSERT_FALSE(j["nodes"].empty());
  for (const auto& node : j["nodes"]) {
    EXPECT_LE(node["depth"].get<int>(), 2);
  }
  // Rank 3 alone: main grows by 2 x (600 + 50) us x 1.3.
  for (const auto& node : j["nodes"]) {
    if (node["path"] == std::vector<std::string>{"main"}) {
      EXPECT_NEAR(node["inclusive_ns"]["delta"].get<double>(), 2 * 650e3 * 1.3, 2);
    }
  }
}

TEST_F(DiffCommand, IdenticalProfilesGiveZeroDeltas) {
  const CommandResult r = run("--diff " + a.string() + " " + a.string() + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& node : j["nodes"]) {
    EXPECT_EQ(node["inclusive_ns"]["delta"].get<double>(), 0);
    EXPECT_EQ(node["presence"], "both");
  }
}

TEST_F(DiffCommand, WrongNumberOfProfilesIsUsageError) {
  expect_one_line(run("--diff " + a.string()), 2, "--diff needs two profiles");
  expect_one_line(run("--diff " + a.string() + " " + b.string() + " " + a.string()), 2, "got 3");
  expect_one_line(run(a.string() + " " + b.string()), 2, "--diff A B");
  expect_one_line(run("--diff " + a.string() + " " + b.string() + " --format html"), 2,
                  "--format html is not available with --diff");
  expect_one_line(run("--diff " + a.string() + " " + b.string() + " --site fig12.c:12"), 2,
                  "--site");
  expect_one_line(run(a.string() + " --diff-by self"), 2, "--diff-by needs --diff");
}

TEST_F(DiffCommand, BadProfileIsNamed) {
  const auto corrupt = dir / "corrupt.vcmon";
  std::ofstream(corrupt, std::ios::binary) << testing::slurp(a).substr(0, 100);
  expect_one_line(run("--diff " + a.string() + " " + corrupt.string()), 1, corrupt.string());
  const auto missing = dir / "missing.vcmon";
  expect_one_line(run("--diff " + missing.string() + " " + b.string()), 1, missing.string());
  expect_one_line(run("--diff " + a.string() + " " + b.string() + " --rank 7"), 1,
                  "rank 7 is not in the profile");
}

} // namespace
} // namespace vcmon::report
