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
using testing::expect_one_line;

class DiffCommand : public ::testing::Test {
protected:
  DiffCommand() : a(dir / "before.vcmon"), b(dir / "after.vcmon") {
    tables::write_profile_file(testing::figure12_profile(), a);
    tables::write_profile_file(testing::figure12_slow_p4(3), b);
  }

  CommandResult run(const std::string& arguments) const {
    return testing::run_report(dir.path(), arguments);
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

// The page carries the diff's JSON, exactly what --format json writes, where the page reads it.
TEST_F(DiffCommand, HtmlIsOneSelfContainedPageHoldingTheJson) {
  const auto page = dir / "diff.html";
  const CommandResult r = run("--diff " + a.string() + " " + b.string() +
                              " --format html --diff-by self -o " + page.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const std::string html = testing::slurp(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos); // never fetches anything
  EXPECT_EQ(html.find("@VCMON_REPORT_JSON@"), std::string::npos);
  const std::string open = "<script type=\"application/json\" id=\"vcmon-data\">";
  const auto start = html.find(open);
  ASSERT_NE(start, std::string::npos);
  const auto end = html.find("</script>", start);
  const auto embedded =
      nlohmann::json::parse(html.substr(start + open.size(), end - start - open.size()));
  const CommandResult json =
      run("--diff " + a.string() + " " + b.string() + " --format json --diff-by self");
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(embedded, nlohmann::json::parse(json.out));
  EXPECT_EQ(embedded["order"], "self");
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
  expect_one_line(run("--diff " + a.string() + " " + b.string() + " --format folded"), 2,
                  "--format folded is not available with --diff");
  expect_one_line(run("--diff " + a.string() + " " + b.string() + " --merge"), 2, "--merge");
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
