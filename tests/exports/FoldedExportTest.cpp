// --format folded: folded stacks as flamegraph.pl and inferno read them, summing to the roots'
// inclusive time, with names that cannot break a line.
#include "ExportChecks.hpp"
#include "HandMadeReports.hpp"
#include "ReportProfiles.hpp"
#include "SimulatedProgram.hpp"
#include "TempDir.hpp"

#include "vcmon/report/ExportTree.hpp"
#include "vcmon/report/FoldedStacksRenderer.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <numeric>

namespace vcmon::report {
namespace {

std::vector<testing::FoldedLine> parse(const std::string& text) {
  std::vector<std::string> problems;
  auto lines = testing::parse_folded(text, problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
  return lines;
}

std::int64_t sum(const std::vector<testing::FoldedLine>& lines) {
  return std::accumulate(lines.begin(), lines.end(), std::int64_t{0},
                         [](std::int64_t s, const testing::FoldedLine& l) { return s + l.value; });
}

std::map<std::string, std::int64_t> by_stack(const std::vector<testing::FoldedLine>& lines) {
  std::map<std::string, std::int64_t> stacks;
  for (const auto& line : lines) {
    std::string stack;
    for (const auto& frame : line.frames) {
      stack += (stack.empty() ? "" : ";") + frame;
    }
    stacks[stack] += line.value;
  }
  return stacks;
}

TEST(ReportExportFolded, Figure12IsOneLinePerNodeWithExclusiveTime) {
  testing::TempDir dir;
  const Report report = build_report(dir.round_trip(testing::figure12_profile()));
  const std::string text = testing::render_folded(report);
  const auto lines = parse(text);
  const ExportTree tree(report, {.unit_ns = 1000, .clamp_negative = true});
  std::size_t timed = 0;
  for (const auto& node : tree.nodes()) {
    timed += node.exclusive > 0 ? 1 : 0;
  }
  EXPECT_EQ(lines.size(), timed);
  for (const auto& line : lines) {
    EXPECT_EQ(line.frames.front(), "program");
  }
  // Whole microseconds of exclusive virtual time, mean over the ranks, summing to the
  // program's inclusive time (977.5 us) within the unit.
  EXPECT_EQ(sum(lines), tree.nodes()[0].inclusive);
  EXPECT_LE(std::abs(static_cast<double>(sum(lines)) - 977.5), 1.0);
  const auto stacks = by_stack(lines);
  EXPECT_EQ(stacks.at("program;main"), 23);
  // 431.25 us: cumulative rounding keeps every value within the unit and the sum exact.
  EXPECT_LE(std::abs(stacks.at("program;main;p2;p3;loop_fig12.c:11;loop_fig12.c:13;p4") - 431.25),
            1.0);
  EXPECT_LE(
      std::abs(stacks.at("program;main;p1;p3;loop_fig12.c:11;MPI_Recv_fig12.c:12;rank_2") - 7.3125),
      1.0);
  EXPECT_EQ(stacks.count("program"), 0u); // the program has no time of its own here
  EXPECT_EQ(text.back(), '\n');
}

TEST(ReportExportFolded, SumsToTheRootsInclusiveTimeOnRandomPrograms) {
  testing::TempDir dir;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Report report = build_report(
        dir.round_trip(testing::simulated_program_profile(seed, 1 + static_cast<int>(seed % 4))));
    const auto lines = parse(testing::render_folded(report));
    const ExportTree tree(report, {.unit_ns = 1000, .clamp_negative = true});
    std::int64_t roots = 0;
    double real = 0; // the roots' mean inclusive time, unrounded
    for (const auto root : tree.roots()) {
      roots += tree.nodes()[root].inclusive;
      real += report.tree.node(tree.nodes()[root].source).time.mean / 1000;
    }
    EXPECT_EQ(sum(lines), roots);
    EXPECT_LE(std::abs(static_cast<double>(sum(lines)) - real), 1.0);
  }
}

TEST(ReportExportFolded, SeparatorsInNamesAreReplaced) {
  EXPECT_EQ(FoldedStacksRenderer::frame("a;b c\td\r\n\x7f"), "a_b_c_d___");
  EXPECT_EQ(FoldedStacksRenderer::frame("ns::f<int>(long)"), "ns::f<int>(long)");
  const auto stacks = by_stack(parse(testing::render_folded(testing::awkward_names_report())));
  EXPECT_EQ(stacks.at("program;main"), 1000);
  EXPECT_EQ(stacks.at("program;main;a_b"), 1000);
  EXPECT_EQ(stacks.at("program;main;a_b;two_words"), 1000);
  EXPECT_EQ(stacks.at("program;main;a_b;two_words;tab_here"), 500);
  // "rank 3 500" would be a differential's two counts to flamegraph.pl and inferno.
  EXPECT_EQ(stacks.at("program;main;a_b;two_words;tab_here;MPI_Send_app.c:5;rank_3"), 500);
}

TEST(ReportExportFolded, ThreadsBrokenTreesAndRecursion) {
  const auto threads = parse(testing::render_folded(testing::threads_report()));
  EXPECT_EQ(sum(threads), 4000); // program 1 ms + worker 3 ms
  EXPECT_EQ(by_stack(threads).at("worker"), 2500);
  EXPECT_EQ(by_stack(threads).at("worker;MPI_Barrier_app.c:12;collective"), 500);

  const auto broken = by_stack(parse(testing::render_folded(testing::broken_report())));
  EXPECT_EQ(broken, (std::map<std::string, std::int64_t>{{"program;main;p", 1500}}));

  const auto recursion = by_stack(parse(testing::render_folded(testing::recursion_report())));
  EXPECT_EQ(recursion, (std::map<std::string, std::int64_t>{
                           {"program;main", 100},
                           {"program;main;fact", 800},
                           {"program;main;fact;fact;MPI_Send_app.c:5;rank_1", 100}}));
}

} // namespace
} // namespace vcmon::report
