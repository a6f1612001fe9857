// --format hatchet: Hatchet's literal format, field by field, on figure 12 and hand-made trees.
#include "ExportChecks.hpp"
#include "HandMadeReports.hpp"
#include "ReportProfiles.hpp"
#include "TempDir.hpp"

#include <cstdlib>
#include <gtest/gtest.h>
#include <map>

namespace vcmon::report {
namespace {

using testing::flatten_hatchet;
using testing::HatchetNode;
using testing::Json;

// The first node (in preorder) along each path of frame names.
std::map<std::string, HatchetNode> by_path(const Json& literal) {
  std::map<std::string, HatchetNode> nodes;
  for (auto& node : flatten_hatchet(literal)) {
    nodes.emplace(node.path, node);
  }
  return nodes;
}

Json figure12_literal() {
  testing::TempDir dir;
  return Json::parse(
      testing::render_hatchet(build_report(dir.round_trip(testing::figure12_profile()))));
}

TEST(ReportExportHatchet, Figure12ConformsToTheLiteralFormat) {
  const Json literal = figure12_literal();
  const auto problems = testing::hatchet_problems(literal);
  EXPECT_TRUE(problems.empty()) << problems.front();
  ASSERT_EQ(literal.size(), 1u); // main is the only root entered from outside
  // The root, exactly as documented: a frame, the metrics, the children.
  const Json& root = literal[0];
  EXPECT_EQ(root["frame"], Json::parse(R"({"name": "program", "type": "function", "file": "",
                                           "line": 0})"));
  EXPECT_EQ(root["metrics"]["time (inc)"], 977500); // mean of 850, 935, 1020, 1105 us
  EXPECT_EQ(root["metrics"]["time"], 0);
  EXPECT_EQ(root["metrics"]["count"], 0.0);
  ASSERT_EQ(root["children"].size(), 1u);
  const Json& main = root["children"][0];
  EXPECT_EQ(main["frame"], Json::parse(R"({"name": "main", "type": "function",
                                           "file": "fig12.c", "line": 1})"));
  EXPECT_EQ(main["metrics"]["time (inc)"], 977500);
  EXPECT_EQ(main["metrics"]["time"], 23000);
  EXPECT_EQ(main["metrics"]["count"], 1.0); // 4 activations over 4 ranks
}

TEST(ReportExportHatchet, Figure12NodesCarryTheReportsMeans) {
  const auto nodes = by_path(figure12_literal());
  const auto& p1 = nodes.at("program;main;p1");
  EXPECT_EQ(p1.type, "function");
  EXPECT_EQ(p1.inclusive, 356500);
  EXPECT_EQ(p1.exclusive, 11500);
  EXPECT_EQ(p1.bytes_inclusive, 768 + 3840); // its MPI_Send and MPI_Recv, mean over the ranks
  EXPECT_EQ(p1.bytes_exclusive, 0);

  const auto& loop = nodes.at("program;main;p2;p3;loop fig12.c:11");
  EXPECT_EQ(loop.type, "loop");
  EXPECT_LE(std::abs(loop.inclusive - 503125), 1);
  EXPECT_DOUBLE_EQ(loop.count, 1.25); // 5 runs over 4 ranks

  const auto& recv = nodes.at("program;main;p2;p3;loop fig12.c:11;MPI_Recv fig12.c:12");
  EXPECT_EQ(recv.type, "statement");
  EXPECT_LE(std::abs(recv.inclusive - 43125), 1);
  EXPECT_EQ(recv.exclusive, 0); // the partners hold all of it
  EXPECT_EQ(recv.bytes_inclusive, 6400);
  EXPECT_EQ(recv.bytes_exclusive, 0);
  EXPECT_DOUBLE_EQ(recv.count, 12.5);
  EXPECT_EQ(recv.children, 4u);
  const auto& partner = nodes.at("program;main;p2;p3;loop fig12.c:11;MPI_Recv fig12.c:12;rank 2");
  EXPECT_EQ(partner.type, "partner");
  EXPECT_EQ(partner.bytes_inclusive, 1600);
  EXPECT_EQ(partner.bytes_exclusive, 1600);
  EXPECT_LE(std::abs(partner.inclusive - 12188), 1);
  EXPECT_EQ(partner.inclusive, partner.exclusive);

  const auto& p4 = nodes.at("program;main;p2;p3;loop fig12.c:11;loop fig12.c:13;p4");
  EXPECT_EQ(p4.inclusive, 431250);
  EXPECT_EQ(p4.exclusive, 431250);
  EXPECT_DOUBLE_EQ(p4.count, 125);
}

TEST(ReportExportHatchet, ThreadsAreRootsOfTheirOwn) {
  const Json literal = Json::parse(testing::render_hatchet(testing::threads_report()));
  const auto problems = testing::hatchet_problems(literal);
  EXPECT_TRUE(problems.empty()) << problems.front();
  ASSERT_EQ(literal.size(), 2u);
  EXPECT_EQ(literal[0]["frame"]["name"], "program");
  EXPECT_EQ(literal[0]["metrics"]["time (inc)"], 1000000);
  ASSERT_EQ(literal[0]["children"].size(), 1u); // main only: the program does not add worker
  EXPECT_EQ(literal[1]["frame"]["name"], "worker");
  EXPECT_EQ(literal[1]["metrics"]["time (inc)"], 3000000);
  EXPECT_EQ(literal[1]["metrics"]["time"], 2500000);
  const Json& barrier = literal[1]["children"][0];
  EXPECT_EQ(barrier["frame"]["name"], "MPI_Barrier app.c:12");
  EXPECT_EQ(barrier["frame"]["file"], "src/app.c");
  EXPECT_EQ(barrier["children"][0]["frame"]["type"], "partner");
  EXPECT_EQ(barrier["children"][0]["frame"]["name"], "collective");
}

TEST(ReportExportHatchet, ABrokenTreeShowsItsNegativeExclusiveTime) {
  const Json literal = Json::parse(testing::render_hatchet(testing::broken_report()));
  const auto problems = testing::hatchet_problems(literal);
  EXPECT_TRUE(problems.empty()) << problems.front();
  const Json& main = literal[0]["children"][0];
  EXPECT_EQ(main["metrics"]["time (inc)"], 1000000);
  EXPECT_EQ(main["metrics"]["time"], -500000); // as the report shows it: never clamped
  EXPECT_EQ(main["children"][0]["metrics"]["time (inc)"], 1500000);
}

TEST(ReportExportHatchet, RecursionIsCountedOnceAndCountedLoopsKeepTheirCount) {
  const auto nodes = by_path(Json::parse(testing::render_hatchet(testing::recursion_report())));
  const auto& fact = nodes.at("program;main;fact");
  EXPECT_EQ(fact.inclusive, 900000);
  EXPECT_EQ(fact.exclusive, 800000);
  // The recursive activation adds only what its children add; its own time is fact's.
  const auto& again = nodes.at("program;main;fact;fact");
  EXPECT_EQ(again.inclusive, 100000);
  EXPECT_EQ(again.exclusive, 0);
  EXPECT_EQ(again.bytes_inclusive, 64);
  const auto& loop = nodes.at("program;main;loop app.c:8");
  EXPECT_EQ(loop.inclusive, 0);
  EXPECT_DOUBLE_EQ(loop.count, 40);
  EXPECT_EQ(loop.type, "loop");
}

TEST(ReportExportHatchet, AnEmptyTreeIsAnEmptyList) {
  EXPECT_EQ(Json::parse(testing::render_hatchet(Report{})), Json::array());
}

} // namespace
} // namespace vcmon::report
