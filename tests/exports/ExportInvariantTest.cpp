// The exports' invariant, inclusive = exclusive + the children's inclusive on every exported
// node, exactly as written, on figure 12 (whole, one rank, filtered), recursion, seeded random
// programs run in simulation, the tables' random profiles (which break the tree's invariant)
// and hand-made trees; and every exported node within one unit of the report's own mean.
#include "ExportChecks.hpp"
#include "HandMadeReports.hpp"
#include "ReportProfiles.hpp"
#include "SimulatedProgram.hpp"
#include "SyntheticProfile.hpp"
#include "TempDir.hpp"

#include "vcmon/report/ExportTree.hpp"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <numeric>

namespace vcmon::report {
namespace {

using testing::Json;

struct Case {
  std::string name;
  Report report;
  bool keeps_invariant = true; // the report's own tree keeps it (self >= 0)
  bool filtered = false;
};

// The real mean the export rounds: a recursive node adds what its children add.
double real_inclusive_ns(const Report& report, const ExportNode& node) {
  const ReportNode& source = report.tree.node(node.source);
  const double ranks = std::max(1, report.header.ranks_reported);
  return (source.recursive && node.parent >= 0 ? source.counted_ns : source.time.total) / ranks;
}

void check_export_tree(const Case& c, const ExportOptions& options) {
  const ExportTree tree(c.report, options);
  const auto nodes = tree.nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const ExportNode& node = nodes[i];
    std::int64_t children = 0, bytes = 0;
    for (const auto child : node.children) {
      ASSERT_GT(child, i); // preorder
      EXPECT_EQ(nodes[child].parent, static_cast<std::int32_t>(i));
      EXPECT_EQ(nodes[child].depth, node.depth + 1);
      children += nodes[child].inclusive;
      bytes += nodes[child].bytes_inclusive;
    }
    EXPECT_EQ(node.inclusive, node.exclusive + children) << node.name;
    EXPECT_EQ(node.bytes_inclusive, node.bytes_exclusive + bytes) << node.name;
    EXPECT_GE(node.bytes_exclusive, 0) << node.name;
    if (options.clamp_negative || c.keeps_invariant) {
      EXPECT_GE(node.exclusive, 0) << node.name;
    }
    if (!options.clamp_negative || c.keeps_invariant) {
      // Cumulative rounding: within one unit of the report's mean.
      EXPECT_LE(std::abs(static_cast<double>(node.inclusive) -
                         real_inclusive_ns(c.report, node) / options.unit_ns),
                1.0 + 1e-9)
          << node.name;
    }
    if (!options.clamp_negative && !c.filtered) {
      // Unfiltered, a node's exclusive time is the report's self column (0 for recursion).
      const ReportNode& source = c.report.tree.node(node.source);
      const double self = source.recursive && node.parent >= 0 ? 0.0 : source.self_mean_ns;
      EXPECT_LE(std::abs(static_cast<double>(node.exclusive) - self / options.unit_ns), 2.0)
          << node.name;
    }
  }
}

void check_case(const Case& c) {
  SCOPED_TRACE(c.name);
  check_export_tree(c, {.unit_ns = 1, .clamp_negative = false});    // hatchet
  check_export_tree(c, {.unit_ns = 1, .clamp_negative = true});     // speedscope
  check_export_tree(c, {.unit_ns = 1000, .clamp_negative = true});  // folded
  check_export_tree(c, {.unit_ns = 1000, .clamp_negative = false}); // microseconds, signed

  // What is written.
  const Json literal = Json::parse(testing::render_hatchet(c.report));
  const auto hatchet = testing::hatchet_problems(literal);
  EXPECT_TRUE(hatchet.empty()) << hatchet.front();
  const Json speedscope = Json::parse(testing::render_speedscope(c.report));
  const auto schema = testing::speedscope_problems(speedscope);
  EXPECT_TRUE(schema.empty()) << schema.front();
  std::vector<std::string> problems;
  const auto lines = testing::parse_folded(testing::render_folded(c.report), problems);
  EXPECT_TRUE(problems.empty()) << problems.front();

  // The folded stacks sum to the roots' inclusive time, the speedscope profile spans it.
  const ExportTree micro(c.report, {.unit_ns = 1000, .clamp_negative = true});
  const ExportTree nano(c.report, {.unit_ns = 1, .clamp_negative = true});
  std::int64_t micro_roots = 0, nano_roots = 0;
  for (const auto root : micro.roots()) {
    micro_roots += micro.nodes()[root].inclusive;
  }
  for (const auto root : nano.roots()) {
    nano_roots += nano.nodes()[root].inclusive;
  }
  EXPECT_EQ(std::accumulate(lines.begin(), lines.end(), std::int64_t{0},
                            [](std::int64_t s, const auto& l) { return s + l.value; }),
            micro_roots);
  EXPECT_EQ(speedscope["profiles"][0]["endValue"], nano_roots);
  EXPECT_EQ(literal.size(), nano.roots().size());
  if (c.keeps_invariant) {
    // Nothing clamped: the Hatchet roots hold the same time.
    std::int64_t hatchet_roots = 0;
    for (const auto& root : literal) {
      hatchet_roots += root["metrics"]["time (inc)"].get<std::int64_t>();
    }
    EXPECT_EQ(hatchet_roots, nano_roots);
  }
}

TEST(ReportExportInvariant, Figure12WholeOneRankAndFiltered) {
  testing::TempDir dir;
  const auto profile = dir.round_trip(testing::figure12_profile());
  check_case({"figure 12", build_report(profile)});
  ReportOptions rank;
  rank.rank = 1;
  check_case({"figure 12, rank 1", build_report(profile, rank)});
  // Hidden children's time is their parent's exclusive time in the exports.
  ReportOptions depth;
  depth.depth = 2;
  check_case({"figure 12, depth 2", build_report(profile, depth), true, true});
  ReportOptions threshold;
  threshold.threshold_percent = 5;
  check_case({"figure 12, threshold 5", build_report(profile, threshold), true, true});
  ReportOptions site;
  site.site = SiteSelector::parse("fig12.c:13");
  check_case({"figure 12, site fig12.c:13", build_report(profile, site), true, true});

  const Json literal = Json::parse(testing::render_hatchet(build_report(profile, depth)));
  const Json& p1 = literal[0]["children"][0]["children"][0];
  EXPECT_EQ(p1["frame"]["name"], "p1");
  EXPECT_EQ(p1["children"].size(), 0u);
  EXPECT_EQ(p1["metrics"]["time"], p1["metrics"]["time (inc)"]);
}

TEST(ReportExportInvariant, RecursionIsExportedOnce) {
  testing::TempDir dir;
  check_case({"factorial", build_report(dir.round_trip(testing::factorial_profile()))});
  check_case({"even/odd", build_report(dir.round_trip(testing::even_odd_profile()))});
  check_case({"triangle", build_report(dir.round_trip(testing::triangle_profile()))});
}

TEST(ReportExportInvariant, SeededRandomProgramsRunInSimulation) {
  testing::TempDir dir;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto ranks = 1 + static_cast<std::int32_t>(seed % 4);
    check_case({"simulated seed " + std::to_string(seed),
                build_report(dir.round_trip(testing::simulated_program_profile(seed, ranks)))});
  }
}

TEST(ReportExportInvariant, RandomProfilesThatBreakTheTreesInvariant) {
  // The tables' generator draws every record at random: selves go negative, recursion and
  // roots outside main abound. The exports keep their own invariant all the same.
  testing::TempDir dir;
  std::size_t negative = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Report report =
        build_report(dir.round_trip(tables::testing::make_synthetic_profile({150, 3, 2}, seed)));
    for (const auto& node : report.tree.nodes()) {
      negative += node.self_ns < 0 ? 1 : 0;
    }
    check_case({"synthetic seed " + std::to_string(seed), report, false});
  }
  EXPECT_GT(negative, 0u); // the clamped formats were exercised
}

TEST(ReportExportInvariant, HandMadeTrees) {
  check_case({"threads", testing::threads_report()});
  check_case({"broken", testing::broken_report(), false});
  check_case({"recursion", testing::recursion_report()});
  check_case({"awkward names", testing::awkward_names_report()});
}

} // namespace
} // namespace vcmon::report
