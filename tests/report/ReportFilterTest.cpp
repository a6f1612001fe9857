// --rank, --depth, --threshold and --site on the figure-12 report.
#include "ReportProfiles.hpp"
#include "TempDir.hpp"
#include "TreeOutline.hpp"

#include "vcmon/report/Report.hpp"
#include "vcmon/report/ReportError.hpp"

#include <gtest/gtest.h>

namespace vcmon::report {
namespace {

using testing::find_nodes;
using testing::outline;

class ReportFilter : public ::testing::Test {
protected:
  ReportFilter() : profile(dir.round_trip(testing::figure12_profile())) {}
  testing::TempDir dir;
  tables::Profile profile;
};

TEST_F(ReportFilter, RankKeepsOnlyThatRanksRecords) {
  ReportOptions options;
  options.rank = 2;
  const Report report = build_report(profile, options);
  EXPECT_EQ(report.header.ranks_reported, 1);
  EXPECT_EQ(report.tree.root().time.max_rank, 2);
  EXPECT_DOUBLE_EQ(report.header.program_ns, double(profile.ranks[2].procs[0].time_ns));
  EXPECT_DOUBLE_EQ(report.tree.root().time.imbalance(), 1.0);
  for (const auto& cell : report.matrix.cells) {
    EXPECT_EQ(cell.rank, 2);
  }
  EXPECT_EQ(report.matrix.cells.size(), 2u);
}

TEST_F(ReportFilter, UnknownRankIsAnError) {
  ReportOptions options;
  options.rank = 9;
  try {
    build_report(profile, options);
    FAIL() << "rank 9 was accepted";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("rank 9"), std::string::npos) << e.what();
  }
}

TEST_F(ReportFilter, DepthCutsLevelsBelowTheProgram) {
  ReportOptions options;
  options.depth = 2;
  const Report report = build_report(profile, options);
  EXPECT_EQ(outline(report.tree), "program\n main@1\n  p1@4<2\n  p2@6<3\n");
  // The hot path is walked on the whole tree.
  EXPECT_EQ(report.hot_path.back().name, "p4");
}

TEST_F(ReportFilter, ThresholdHidesSmallNodes) {
  ReportOptions options;
  options.threshold_percent = 50;
  const Report report = build_report(profile, options);
  for (const auto& node : report.tree.nodes()) {
    EXPECT_GE(node.percent, 50) << node.name << "@" << node.pos.line;
  }
  EXPECT_TRUE(find_nodes(report.tree, [](const auto& n) { return n.name == "p1"; }).empty());
  EXPECT_EQ(find_nodes(report.tree, [](const auto& n) { return n.name == "p2"; }).size(), 1u);
  for (const auto& statement : report.statements) {
    EXPECT_GE(statement.percent, 50);
  }
}

TEST_F(ReportFilter, SiteKeepsItsCallersAndWhatIsBelowIt) {
  ReportOptions options;
  options.site = SiteSelector::parse("fig12.c:13");
  const Report report = build_report(profile, options);
  const std::string path = "   p3@8<{}\n"
                           "    loop@11\n"
                           "     loop@13\n"
                           "      p4@15<14\n";
  auto via = [&](int line) {
    std::string text = path;
    text.replace(text.find("{}"), 2, std::to_string(line));
    return text;
  };
  EXPECT_EQ(outline(report.tree), "program\n main@1\n  p1@4<2\n" + via(5) + "  p2@6<3\n" + via(7));
}

TEST_F(ReportFilter, SiteMatchesACallSiteByItsTrailingPathComponent) {
  auto moved = profile;
  tables::ProgramGraph graph;
  for (const auto& site : profile.graph.sites()) {
    auto pos = site.pos;
    pos.file = "/home/user/app/" + pos.file;
    graph.add_site(site.kind, pos, site.name, site.parent, site.symbol);
  }
  moved.graph = graph;
  ReportOptions options;
  options.site = SiteSelector::parse("app/fig12.c:10");
  const Report report = build_report(moved, options);
  const auto p4 = find_nodes(report.tree, [](const auto& n) { return n.name == "p4"; });
  ASSERT_EQ(p4.size(), 2u);
  for (const auto* node : p4) {
    EXPECT_EQ(node->call_pos->line, 10u);
  }
}

TEST_F(ReportFilter, SiteThatWasNeverMeasuredIsAnError) {
  ReportOptions options;
  options.site = SiteSelector::parse("fig12.c:99");
  EXPECT_THROW(build_report(profile, options), ReportError);
  options.site = SiteSelector::parse("g12.c:9"); // not a whole path component
  EXPECT_THROW(build_report(profile, options), ReportError);
}

TEST(SiteSelector, RejectsWhatIsNotFileColonLine) {
  for (const char* bad : {"fig12.c", "fig12.c:", ":12", "fig12.c:x", "fig12.c:0", "a.c:12x"}) {
    EXPECT_THROW(SiteSelector::parse(bad), ReportError) << bad;
  }
  const auto selector = SiteSelector::parse("dir:name/a.c:12");
  EXPECT_EQ(selector.file, "dir:name/a.c");
  EXPECT_EQ(selector.line, 12u);
}

} // namespace
} // namespace vcmon::report
