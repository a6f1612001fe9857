// Every report tree keeps the accounting invariants (TreeInvariants.hpp): the profiles the
// report tests are built on, seeded random programs run in simulation, and, so the checker is
// known to see a violation, trees and profiles broken on purpose.
#include "JoinedLines.hpp"
#include "ReportProfiles.hpp"
#include "SimulatedProgram.hpp"
#include "TempDir.hpp"
#include "TreeInvariants.hpp"
#include "TreeOutline.hpp"

#include "vcmon/report/Report.hpp"

#include <gtest/gtest.h>

namespace vcmon::report {
namespace {

using testing::joined_lines;

TEST(TreeInvariantReport, HoldForTheReportTestsProfiles) {
  testing::TempDir dir;
  for (const auto& profile : {testing::figure12_profile(), testing::factorial_profile(),
                              testing::even_odd_profile(), testing::triangle_profile()}) {
    SCOPED_TRACE(profile.meta.command);
    EXPECT_EQ(joined_lines(testing::profile_invariant_violations(dir.round_trip(profile))), "");
  }
}

TEST(TreeInvariantReport, HoldForSimulatedPrograms) {
  testing::TempDir dir;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const auto ranks = static_cast<std::int32_t>(1 + seed % 5);
    SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(ranks) + " ranks");
    const auto profile = dir.round_trip(testing::simulated_program_profile(seed, ranks));
    EXPECT_EQ(joined_lines(testing::profile_invariant_violations(profile)), "");
  }
}

// The simulated programs are only a fair test if they reach what the invariants are about:
// apportioned procedures, loops, nonblocking calls, partners held by several ranks.
TEST(TreeInvariantReport, SimulatedProgramsExerciseTheTree) {
  bool apportioned = false, loop = false, nonblocking = false, shared_partner = false;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Report report =
        build_report(testing::simulated_program_profile(seed, static_cast<std::int32_t>(4)));
    for (const auto& node : report.tree.nodes()) {
      apportioned = apportioned || node.apportioned;
      loop = loop || node.kind == NodeKind::Loop;
      nonblocking = nonblocking || node.name == "MPI_Irecv" || node.name == "MPI_Isend";
      shared_partner =
          shared_partner || (node.kind == NodeKind::Partner && node.time.imbalance_ranks > 1 &&
                             node.partner != tables::ComRecord::kCollective);
    }
  }
  EXPECT_TRUE(apportioned);
  EXPECT_TRUE(loop);
  EXPECT_TRUE(nonblocking);
  EXPECT_TRUE(shared_partner);
}

TEST(TreeInvariantReport, CheckerSeesAChildExceedingItsParent) {
  testing::TempDir dir;
  const Report report = build_report(dir.round_trip(testing::figure12_profile()));
  ASSERT_TRUE(testing::tree_invariant_violations(report.tree, 4).empty());
  ReportTree broken = report.tree;
  const auto loops =
      testing::find_nodes(broken, [](const ReportNode& n) { return n.pos.line == 13; });
  ASSERT_FALSE(loops.empty());
  // Inner loop 2 now adds more than loop 1 (its parent) holds.
  ReportNode& inner = broken.mutable_node(loops[0]->id);
  inner.counted_ns = inner.time.total = 2 * report.tree.node(loops[0]->id).time.total + 1e6;
  const auto violations = joined_lines(testing::tree_invariant_violations(broken, 4));
  EXPECT_NE(violations.find("loop loop fig12.c:11"), std::string::npos) << violations;
  EXPECT_NE(violations.find("children exceed the inclusive time (sum over the ranks)"),
            std::string::npos)
      << violations;
  EXPECT_NE(violations.find("children exceed the inclusive time (means over the ranks)"),
            std::string::npos)
      << violations;
}

TEST(TreeInvariantReport, CheckerSeesASelfTimeThatHidesAViolation) {
  testing::TempDir dir;
  ReportTree broken = build_report(dir.round_trip(testing::figure12_profile())).tree;
  broken.mutable_node(1).self_ns = 0; // main's self set to 0 as a clamp would
  broken.mutable_node(1).self_mean_ns = 0;
  const auto violations = joined_lines(testing::tree_invariant_violations(broken, 4));
  EXPECT_NE(violations.find("procedure main fig12.c:1 (node 1): self time is not the inclusive "
                            "time minus what the children add"),
            std::string::npos)
      << violations;
}

// One rank's loop 2 outgrows what loop 1 leaves it on that rank while the sums over the ranks
// still fit: only the per-rank check sees it.
TEST(TreeInvariantReport, PerRankCheckSeesWhatTheSumsHide) {
  testing::TempDir dir;
  tables::Profile profile = testing::figure12_profile();
  auto& rank0 = profile.ranks[0];
  const double loop1_us = testing::kFig12Loop1 * testing::fig12_scale(0);
  const double e2_us = testing::kFig12E2 * testing::fig12_scale(0);
  for (auto& loop : rank0.loops) {
    if (profile.graph.site(loop.loop).pos.line == 13) {
      loop.time_ns = static_cast<std::uint64_t>((loop1_us - e2_us + 10) * 1000);
    }
  }
  profile = dir.round_trip(profile);
  EXPECT_TRUE(testing::tree_invariant_violations(build_report(profile).tree, 4).empty());
  const auto violations = testing::profile_invariant_violations(profile);
  ASSERT_FALSE(violations.empty());
  for (const auto& line : violations) {
    EXPECT_EQ(line.rfind("rank 0: loop loop fig12.c:11", 0), 0u) << line;
  }
}

} // namespace
} // namespace vcmon::report
