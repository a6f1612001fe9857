// The paper's figure 12 on 4 ranks: the tree follows the six tables, times are the records',
// split among call sites where a procedure has several, and the hot path ends at p4.
#include "ReportProfiles.hpp"
#include "TempDir.hpp"
#include "TreeOutline.hpp"

#include "vcmon/report/Report.hpp"

#include <gtest/gtest.h>
#include <numeric>

namespace vcmon::report {
namespace {

using testing::find_nodes;
using testing::outline;

class Figure12Report : public ::testing::Test {
protected:
  Figure12Report() : profile(dir.round_trip(testing::figure12_profile())) {}

  // Per rank, the time of the proc record (proc named `name`, called at `line`).
  double proc_time(int rank, const std::string& name, std::uint32_t line) const {
    const auto& rec = profile.ranks.at(static_cast<std::size_t>(rank));
    for (const auto& p : rec.procs) {
      const auto& site = profile.graph.site(p.proc);
      const auto call_line =
          p.call_site == tables::kNoSite ? 0u : profile.graph.site(p.call_site).pos.line;
      if (site.name == name && call_line == line) {
        return static_cast<double>(p.time_ns);
      }
    }
    ADD_FAILURE() << "no proc record for " << name << " called at " << line;
    return 0;
  }
  double loop_time(int rank, std::uint32_t line) const {
    for (const auto& l : profile.ranks.at(static_cast<std::size_t>(rank)).loops) {
      if (profile.graph.site(l.loop).pos.line == line) {
        return static_cast<double>(l.time_ns);
      }
    }
    ADD_FAILURE() << "no loop record at line " << line;
    return 0;
  }

  testing::TempDir dir;
  tables::Profile profile;
};

TEST_F(Figure12Report, TreeFollowsTheStaticTables) {
  const Report report = build_report(profile);
  const std::string p3_subtree = "    MPI_Send@9\n"
                                 "    p4@15<10\n"
                                 "    loop@11\n"
                                 "     MPI_Recv@12\n"
                                 "     loop@13\n"
                                 "      p4@15<14\n";
  EXPECT_EQ(outline(report.tree), "program\n"
                                  " main@1\n"
                                  "  p1@4<2\n"
                                  "   p3@8<5\n" +
                                      p3_subtree +
                                      "  p2@6<3\n"
                                      "   p3@8<7\n" +
                                      p3_subtree);
}

TEST_F(Figure12Report, ProgramTotalIsMainsRecordAndMainIsAllOfIt) {
  const Report report = build_report(profile);
  double main_total = 0;
  for (int r = 0; r < 4; ++r) {
    main_total += proc_time(r, "main", 0);
  }
  EXPECT_DOUBLE_EQ(report.header.program_ns, main_total);
  const auto main_nodes = find_nodes(report.tree, [](const auto& n) { return n.name == "main"; });
  ASSERT_EQ(main_nodes.size(), 1u);
  EXPECT_DOUBLE_EQ(main_nodes[0]->time.total, main_total);
  EXPECT_DOUBLE_EQ(main_nodes[0]->percent, 100.0);
}

TEST_F(Figure12Report, AcrossRanksStatsNameTheSlowestRank) {
  const Report report = build_report(profile);
  const auto p2 = find_nodes(report.tree, [](const auto& n) { return n.name == "p2"; });
  ASSERT_EQ(p2.size(), 1u);
  std::vector<double> per_rank;
  for (int r = 0; r < 4; ++r) {
    per_rank.push_back(proc_time(r, "p2", 3));
  }
  const double mean = std::accumulate(per_rank.begin(), per_rank.end(), 0.0) / 4;
  EXPECT_DOUBLE_EQ(p2[0]->time.min, per_rank[0]);
  EXPECT_DOUBLE_EQ(p2[0]->time.max, per_rank[3]);
  EXPECT_DOUBLE_EQ(p2[0]->time.mean, mean);
  EXPECT_EQ(p2[0]->time.max_rank, 3);
  EXPECT_DOUBLE_EQ(p2[0]->time.imbalance(), per_rank[3] / mean);
  EXPECT_DOUBLE_EQ(p2[0]->count, 4);
}

TEST_F(Figure12Report, SitesOfASharedProcedureAreSplitByEachActivationsTime) {
  const Report report = build_report(profile);
  const auto loops = find_nodes(report.tree, [](const auto& n) { return n.pos.line == 11; });
  ASSERT_EQ(loops.size(), 2u); // under p3 via p1, then via p2
  double via_p1 = 0, via_p2 = 0;
  for (int r = 0; r < 4; ++r) {
    const double a = proc_time(r, "p3", 5), b = proc_time(r, "p3", 7);
    via_p1 += loop_time(r, 11) * a / (a + b);
    via_p2 += loop_time(r, 11) * b / (a + b);
  }
  EXPECT_NEAR(loops[0]->time.total, via_p1, 1e-6);
  EXPECT_NEAR(loops[1]->time.total, via_p2, 1e-6);
  EXPECT_TRUE(loops[0]->apportioned);
  // The p3 activations themselves are measured, not split.
  const auto p3 = find_nodes(report.tree, [](const auto& n) { return n.name == "p3"; });
  ASSERT_EQ(p3.size(), 2u);
  EXPECT_FALSE(p3[0]->apportioned);
}

TEST_F(Figure12Report, NoChildAddsMoreThanItsParentHolds) {
  const Report report = build_report(profile);
  for (const auto& node : report.tree.nodes()) {
    double children = 0;
    for (const auto child : node.children) {
      children += report.tree.node(child).counted_ns;
    }
    EXPECT_LE(children, node.time.total * (1 + 1e-12)) << node.name << "@" << node.pos.line;
    EXPECT_NEAR(node.self_ns, node.time.total - children, 1e-6);
  }
}

TEST_F(Figure12Report, HotPathEndsAtP4CalledInLoop2) {
  const Report report = build_report(profile);
  std::vector<std::string> walk;
  for (const auto& step : report.hot_path) {
    walk.push_back(step.name + "@" + std::to_string(step.pos.line));
  }
  EXPECT_EQ(walk, (std::vector<std::string>{"program@0", "main@1", "p2@6", "p3@8", "loop@11",
                                            "loop@13", "p4@15"}));
  ASSERT_TRUE(report.hot_path.back().call_pos);
  EXPECT_EQ(report.hot_path.back().call_pos->line, 14u);
}

TEST_F(Figure12Report, CommunicationStatementsSplitTransmissionFromSyncDelay) {
  const Report report = build_report(profile);
  ASSERT_EQ(report.statements.size(), 2u);
  EXPECT_EQ(report.statements[0].name, "MPI_Recv"); // e2 costs more than e1
  std::uint64_t transmission = 0, sync = 0, bytes = 0, count = 0;
  for (const auto& rec : profile.ranks) {
    for (const auto& com : rec.coms) {
      if (profile.graph.site(com.comm).name == "MPI_Recv") {
        transmission += com.transmission_ns;
        sync += com.sync_delay_ns;
        bytes += com.bytes;
        count += com.count;
      }
    }
  }
  const auto& recv = report.statements[0];
  EXPECT_EQ(recv.transmission_ns, transmission);
  EXPECT_EQ(recv.sync_delay_ns, sync);
  EXPECT_EQ(recv.bytes, bytes);
  EXPECT_EQ(recv.count, count);
  EXPECT_EQ(recv.partners, 4u);
  EXPECT_DOUBLE_EQ(recv.time.total, double(transmission + sync));
}

TEST_F(Figure12Report, MatrixHoldsEachRanksPartners) {
  const Report report = build_report(profile);
  EXPECT_EQ(report.matrix.ranks, 4);
  ASSERT_EQ(report.matrix.cells.size(), 8u);
  for (const auto& cell : report.matrix.cells) {
    const bool next = cell.partner == (cell.rank + 1) % 4;
    const bool previous = cell.partner == (cell.rank + 3) % 4;
    ASSERT_TRUE(next || previous) << cell.rank << "->" << cell.partner;
    EXPECT_EQ(cell.messages, next ? 2u : 20u);
    EXPECT_EQ(cell.bytes, next ? 2048u : 20u * 512u);
  }
}

TEST_F(Figure12Report, PartnersOfAStatementSumToIt) {
  const Report report = build_report(profile);
  for (const auto& node : report.tree.nodes()) {
    if (node.kind != NodeKind::Comm) {
      continue;
    }
    ASSERT_EQ(node.children.size(), 4u);
    double partners = 0;
    for (const auto child : node.children) {
      EXPECT_EQ(report.tree.node(child).kind, NodeKind::Partner);
      partners += report.tree.node(child).time.total;
    }
    EXPECT_NEAR(partners, node.time.total, 1e-6);
  }
}

TEST_F(Figure12Report, HeaderCarriesTheRunAndTheMonitorsCost) {
  const Report report = build_report(profile);
  const auto& h = report.header;
  EXPECT_EQ(h.command, "./fig12");
  EXPECT_EQ(h.ranks, 4);
  EXPECT_EQ(h.ranks_reported, 4);
  EXPECT_EQ(h.hosts, std::vector<std::string>{"node1"});
  EXPECT_EQ(h.virtual_ns, profile.ranks[3].virtual_ns);
  EXPECT_EQ(h.intrusion_ns, 4 * profile.ranks[0].intrusion_ns);
  EXPECT_EQ(h.counters.probe_events, 4 * profile.ranks[0].counters.probe_events);
  EXPECT_FALSE(h.partial);
}

} // namespace
} // namespace vcmon::report
