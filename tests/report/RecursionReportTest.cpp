// Recursion is shown once and never counted twice (the paper's figure 11: docs/design.md, "Sites
// and the program graph").
#include "ReportProfiles.hpp"
#include "TempDir.hpp"
#include "TreeOutline.hpp"

#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/TextRenderer.hpp"

#include <gtest/gtest.h>
#include <sstream>

namespace vcmon::report {
namespace {

using testing::find_nodes;
using testing::outline;

const ReportNode& only(const ReportTree& tree, const std::string& name, std::uint32_t call_line) {
  const auto found = find_nodes(tree, [&](const ReportNode& n) {
    return n.name == name && n.call_pos && n.call_pos->line == call_line;
  });
  EXPECT_EQ(found.size(), 1u) << name << " called at " << call_line;
  return *found.at(0);
}

TEST(RecursionReport, SelfRecursionIsExpandedOnceAndNotAddedAgain) {
  testing::TempDir dir;
  const auto profile = dir.round_trip(testing::factorial_profile());
  const Report report = build_report(profile);
  EXPECT_EQ(outline(report.tree), "program\n"
                                  " main@1\n"
                                  "  fact@3<2\n"
                                  "   fact@3<4 (recursive)\n"
                                  "   MPI_Bcast@5\n");
  const auto& outer = only(report.tree, "fact", 2);
  const auto& inner = only(report.tree, "fact", 4);
  const auto& rec = profile.ranks[0];
  const double bcast = double(rec.coms[0].transmission_ns + rec.coms[0].sync_delay_ns);
  EXPECT_FALSE(outer.recursive);
  EXPECT_TRUE(inner.recursive);
  EXPECT_TRUE(inner.children.empty());
  // The inner activations' 800 ns lie inside the outer 900 ns: they are shown, not added.
  EXPECT_DOUBLE_EQ(inner.time.total, double(rec.procs[2].time_ns));
  EXPECT_DOUBLE_EQ(inner.counted_ns, 0);
  EXPECT_DOUBLE_EQ(outer.self_ns, double(rec.procs[1].time_ns) - bcast);
  EXPECT_DOUBLE_EQ(inner.count, double(rec.procs[2].count));
}

TEST(RecursionReport, MutualRecursionShowsEachMemberOnce) {
  testing::TempDir dir;
  const auto profile = dir.round_trip(testing::even_odd_profile());
  const Report report = build_report(profile);
  EXPECT_EQ(outline(report.tree), "program\n"
                                  " main@1\n"
                                  "  is_even@3<2\n"
                                  "   is_odd@5<4 (recursive)\n"
                                  "    is_even@3<6 (recursive)\n"
                                  "    MPI_Barrier@7\n");
  const auto& entry = only(report.tree, "is_even", 2);
  const auto& odd = only(report.tree, "is_odd", 4);
  const auto& back = only(report.tree, "is_even", 6);
  const auto& rec = profile.ranks[0];
  const double barrier = double(rec.coms[0].transmission_ns + rec.coms[0].sync_delay_ns);
  // Around the cycle only the barrier's time is added: is_odd's and is_even's inner records
  // are already inside the entry's time.
  EXPECT_DOUBLE_EQ(back.counted_ns, 0);
  EXPECT_DOUBLE_EQ(odd.counted_ns, barrier);
  EXPECT_DOUBLE_EQ(entry.self_ns, entry.time.total - barrier);
  EXPECT_DOUBLE_EQ(entry.time.total, double(rec.procs[1].time_ns));
}

TEST(RecursionReport, AComponentReachedAlongSeveralPathsShowsEachMemberOnce) {
  testing::TempDir dir;
  const auto profile = dir.round_trip(testing::triangle_profile());
  const Report report = build_report(profile);
  EXPECT_EQ(outline(report.tree), "program\n"
                                  " main@1\n"
                                  "  a@3<2\n"
                                  "   b@6<4 (recursive)\n"
                                  "    c@8<7 (recursive)\n"
                                  "     a@3<9 (recursive)\n"
                                  "     loop@10\n"
                                  "   c@8<5 (recursive)\n");
  // The loop inside the cycle is the only time the component's members add to its entry.
  const auto& entry = only(report.tree, "a", 2);
  EXPECT_DOUBLE_EQ(entry.self_ns, entry.time.total - double(profile.ranks[0].loops[0].time_ns));
}

TEST(RecursionReport, HotPathFollowsTheCycleOnlyForWhatItAdds) {
  testing::TempDir dir;
  const Report report = build_report(dir.round_trip(testing::factorial_profile()));
  // fact's own code outweighs its broadcast, and the recursive call adds nothing.
  ASSERT_EQ(report.hot_path.size(), 3u);
  EXPECT_EQ(report.hot_path.back().name, "fact");
  EXPECT_FALSE(report.hot_path.back().recursive);
}

// Recursion deeper than the monitor's activation stack: the profile says how many
// activations were folded, and the report says so in every format.
TEST(RecursionReport, ActivationsFoldedBeyondTheStackAreReported) {
  testing::TempDir dir;
  tables::Profile deep = testing::factorial_profile();
  deep.meta.activation_depth = 256;
  deep.ranks[0].counters.folded_activations = 399'744;
  const Report report = build_report(dir.round_trip(deep));
  std::ostringstream text;
  TextRenderer().render(report, text);
  EXPECT_NE(text.str().find("  FOLDED: 399744 activations beyond depth 256 were folded"),
            std::string::npos)
      << text.str();
  const auto json = JsonRenderer().to_json(report);
  EXPECT_EQ(json["header"]["counters"]["folded_activations"], 399'744);
  EXPECT_EQ(json["header"]["activation_depth"], 256);

  std::ostringstream shallow;
  TextRenderer().render(build_report(dir.round_trip(testing::factorial_profile())), shallow);
  EXPECT_EQ(shallow.str().find("FOLDED"), std::string::npos) << shallow.str();
}

} // namespace
} // namespace vcmon::report
