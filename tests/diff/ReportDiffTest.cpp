// The comparison model and its renderers: figure 12 against itself, against a copy with p4 made
// 3x slower, with a procedure only in B, renumbered sites and fewer ranks.
#include "DiffProfiles.hpp"
#include "ReportProfiles.hpp"
#include "TempDir.hpp"

#include "vcmon/report/DiffJsonRenderer.hpp"
#include "vcmon/report/DiffTextRenderer.hpp"
#include "vcmon/report/ReportDiff.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace vcmon::report {
namespace {

class ReportDiffTest : public ::testing::Test {
protected:
  Report report_of(const tables::Profile& profile, ReportOptions options = {}) {
    return build_report(dir.round_trip(profile), options);
  }
  ReportDiff diff(const tables::Profile& a, const tables::Profile& b, DiffOptions options = {}) {
    return diff_reports(report_of(a), report_of(b), options);
  }
  static const DiffNode* find(const ReportDiff& d, const std::string& path) {
    for (const auto& node : d.nodes) {
      if (node.path_text() == path) {
        return &node;
      }
    }
    return nullptr;
  }
  static bool is_prefix(const std::vector<std::string>& prefix,
                        const std::vector<std::string>& path) {
    return prefix.size() <= path.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
  }

  testing::TempDir dir;
};

DiffOptions ordered_by(DiffOrder order) {
  DiffOptions options;
  options.order = order;
  return options;
}

DiffOptions filtered(std::optional<std::uint32_t> depth, double threshold_percent) {
  DiffOptions options;
  options.depth = depth;
  options.threshold_percent = threshold_percent;
  return options;
}

const std::string kP4InLoopViaP2 =
    "main > p2@fig12.c:3 > p3@fig12.c:7 > loop@fig12.c:11 > loop@fig12.c:13 > p4@fig12.c:14";

TEST_F(ReportDiffTest, IdenticalProfilesHaveNoDelta) {
  const ReportDiff d = diff(testing::figure12_profile(), testing::figure12_profile());
  EXPECT_EQ(d.nodes.size(), report_of(testing::figure12_profile()).tree.size());
  for (const auto& node : d.nodes) {
    EXPECT_EQ(node.presence, DiffPresence::Both) << node.path_text();
    EXPECT_EQ(node.inclusive_ns.delta(), 0) << node.path_text();
    EXPECT_EQ(node.self_ns.delta(), 0) << node.path_text();
    EXPECT_EQ(node.count.delta(), 0) << node.path_text();
    EXPECT_DOUBLE_EQ(node.inclusive_ns.ratio().value(), 1.0) << node.path_text();
    if (node.transmission_ns) {
      EXPECT_EQ(node.transmission_ns->delta(), 0);
      EXPECT_EQ(node.sync_delay_ns->delta(), 0);
    }
  }
  ASSERT_EQ(d.statements.size(), 2u);
  for (const auto& s : d.statements) {
    EXPECT_EQ(s.presence, DiffPresence::Both);
    EXPECT_EQ(s.time_ns.delta(), 0);
    EXPECT_GT(s.time_ns.a, 0);
  }
  // Unchanged nodes keep the tree's order: the program first.
  EXPECT_EQ(d.nodes.front().path_text(), "program");
}

TEST_F(ReportDiffTest, SitesAreMatchedByPathNotById) {
  const ReportDiff d =
      diff(testing::figure12_profile(), testing::renumbered(testing::figure12_profile()));
  for (const auto& node : d.nodes) {
    EXPECT_EQ(node.presence, DiffPresence::Both) << node.path_text();
    EXPECT_EQ(node.inclusive_ns.delta(), 0) << node.path_text();
  }
  for (const auto& s : d.statements) {
    EXPECT_EQ(s.presence, DiffPresence::Both);
  }
}

TEST_F(ReportDiffTest, ThreeTimesSlowerProcedureLeadsBySelfTime) {
  const ReportDiff d =
      diff(testing::figure12_profile(), testing::figure12_slow_p4(3), ordered_by(DiffOrder::Self));
  ASSERT_FALSE(d.nodes.empty());
  const DiffNode& first = d.nodes.front();
  EXPECT_EQ(first.path_text(), kP4InLoopViaP2);
  EXPECT_EQ(first.kind, NodeKind::Procedure);
  EXPECT_NEAR(first.inclusive_ns.ratio().value(), 3.0, 1e-6);
  EXPECT_NEAR(first.self_ns.ratio().value(), 3.0, 1e-6);
  EXPECT_EQ(first.count.delta(), 0);
  // Then the same procedure along p1; every other procedure's self time is unchanged.
  EXPECT_EQ(d.nodes[1].name, "p4");
  for (const auto& node : d.nodes) {
    if (node.kind == NodeKind::Procedure && node.name != "p4") {
      EXPECT_NEAR(node.self_ns.delta(), 0, 1) << node.path_text();
    }
  }
}

TEST_F(ReportDiffTest, ThreeTimesSlowerProcedureAndItsPathLeadByInclusiveTime) {
  const ReportDiff d = diff(testing::figure12_profile(), testing::figure12_slow_p4(3));
  const DiffNode* p4 = find(d, kP4InLoopViaP2);
  ASSERT_NE(p4, nullptr);
  EXPECT_NEAR(p4->inclusive_ns.ratio().value(), 3.0, 1e-6);
  // p4 base 600 us in the loop, 5/8 of it via p2, scaled by the mean rank factor 1.15.
  EXPECT_NEAR(p4->inclusive_ns.delta(), 2 * 600e3 * 5 / 8 * 1.15, 1);
  // Among procedures, every one ranked before this p4 is on its path: the change's path
  // comes first, and the deepest node accounting for it is p4 itself.
  for (const auto& node : d.nodes) {
    if (&node == p4) {
      break;
    }
    if (node.kind == NodeKind::Procedure) {
      EXPECT_TRUE(is_prefix(node.path, p4->path)) << node.path_text();
    }
  }
  // Sorted by |delta| descending.
  for (std::size_t i = 1; i < d.nodes.size(); ++i) {
    EXPECT_GE(std::abs(d.nodes[i - 1].inclusive_ns.delta()),
              std::abs(d.nodes[i].inclusive_ns.delta()));
  }
  // Communication did not change.
  for (const auto& s : d.statements) {
    EXPECT_EQ(s.time_ns.delta(), 0);
  }
}

TEST_F(ReportDiffTest, NodeOnlyInBIsMarked) {
  const ReportDiff d = diff(testing::figure12_profile(), testing::figure12_with_p5(100));
  const DiffNode* p5 = find(d, "main > p5@fig12.c:16");
  ASSERT_NE(p5, nullptr);
  EXPECT_EQ(p5->presence, DiffPresence::OnlyB);
  EXPECT_EQ(p5->inclusive_ns.a, 0);
  EXPECT_NEAR(p5->inclusive_ns.b, 100e3, 1e-6);
  EXPECT_FALSE(p5->inclusive_ns.ratio().has_value());
  for (const auto& node : d.nodes) {
    if (&node != p5) {
      EXPECT_EQ(node.presence, DiffPresence::Both) << node.path_text();
    }
  }
  // Reversed, it is only in A.
  const ReportDiff back = diff(testing::figure12_with_p5(100), testing::figure12_profile());
  const DiffNode* gone = find(back, "main > p5@fig12.c:16");
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(gone->presence, DiffPresence::OnlyA);
  EXPECT_DOUBLE_EQ(gone->inclusive_ns.ratio().value(), 0.0);

  std::ostringstream text;
  DiffTextRenderer().render(d, text);
  EXPECT_NE(text.str().find("main > p5@fig12.c:16  [only in B]"), std::string::npos) << text.str();
}

TEST_F(ReportDiffTest, DifferentRankCountsCompareMeans) {
  // Two ranks (scales 1.0, 1.1) against four (mean scale 1.15).
  const ReportDiff d = diff(testing::figure12_ranks(2), testing::figure12_profile());
  const DiffNode* main = find(d, "main");
  ASSERT_NE(main, nullptr);
  EXPECT_NEAR(main->inclusive_ns.a, testing::kFig12Main * 1000 * 1.05, 1);
  EXPECT_NEAR(main->inclusive_ns.b, testing::kFig12Main * 1000 * 1.15, 1);
  EXPECT_DOUBLE_EQ(main->count.a, 1);
  EXPECT_DOUBLE_EQ(main->count.b, 1);
  EXPECT_EQ(d.header_a.ranks_reported, 2);
  EXPECT_EQ(d.header_b.ranks_reported, 4);
}

TEST_F(ReportDiffTest, DepthAndThresholdFilterTheComparison) {
  const auto a = testing::figure12_profile();
  const auto b = testing::figure12_slow_p4(3);
  const ReportDiff shallow = diff(a, b, filtered(2, 0));
  for (const auto& node : shallow.nodes) {
    EXPECT_LE(node.depth, 2u) << node.path_text();
  }
  EXPECT_NE(find(shallow, "main > p2@fig12.c:3"), nullptr);
  const ReportDiff big = diff(a, b, filtered(std::nullopt, 10));
  for (const auto& node : big.nodes) {
    if (node.depth > 0) {
      EXPECT_GE(std::max(node.percent_a, node.percent_b), 10) << node.path_text();
    }
  }
  EXPECT_NE(find(big, kP4InLoopViaP2), nullptr);
  EXPECT_EQ(find(big, "main > p1@fig12.c:2 > p3@fig12.c:5 > MPI_Send@fig12.c:9"), nullptr);
}

TEST_F(ReportDiffTest, JsonHoldsTheSameNumbers) {
  ReportDiff d = diff(testing::figure12_profile(), testing::figure12_slow_p4(3));
  d.name_a = "a.vcmon";
  d.name_b = "b.vcmon";
  std::ostringstream out;
  DiffJsonRenderer().render(d, out);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["diff_version"], kDiffSchemaVersion);
  EXPECT_EQ(j["a"]["profile"], "a.vcmon");
  EXPECT_EQ(j["b"]["ranks_reported"], 4);
  ASSERT_EQ(j["nodes"].size(), d.nodes.size());
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    const auto& node = d.nodes[i];
    const auto& jn = j["nodes"][i];
    EXPECT_EQ(jn["path"].get<std::vector<std::string>>(), node.path);
    EXPECT_EQ(jn["presence"], to_string(node.presence));
    EXPECT_DOUBLE_EQ(jn["inclusive_ns"]["a"].get<double>(), node.inclusive_ns.a);
    EXPECT_DOUBLE_EQ(jn["inclusive_ns"]["b"].get<double>(), node.inclusive_ns.b);
    EXPECT_DOUBLE_EQ(jn["inclusive_ns"]["delta"].get<double>(), node.inclusive_ns.delta());
    EXPECT_DOUBLE_EQ(jn["self_ns"]["delta"].get<double>(), node.self_ns.delta());
    EXPECT_DOUBLE_EQ(jn["count"]["b"].get<double>(), node.count.b);
    EXPECT_EQ(jn.contains("transmission_ns"), node.transmission_ns.has_value());
  }
  const auto& first = j["nodes"][0];
  EXPECT_EQ(first["name"], d.nodes[0].name);
  ASSERT_EQ(j["statements"].size(), d.statements.size());
  for (std::size_t i = 0; i < d.statements.size(); ++i) {
    EXPECT_DOUBLE_EQ(j["statements"][i]["time_ns"]["a"].get<double>(), d.statements[i].time_ns.a);
    EXPECT_EQ(j["statements"][i]["name"], d.statements[i].name);
  }
}

} // namespace
} // namespace vcmon::report
