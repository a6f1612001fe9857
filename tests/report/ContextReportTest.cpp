// The tree of a profile with calling contexts (format 6) is the contexts merged by path across
// the ranks: exact, nothing apportioned (docs/report.md, "The tree").
#include "JoinedLines.hpp"
#include "JsonSchemaChecker.hpp"
#include "ReportProfiles.hpp"
#include "TempDir.hpp"
#include "TreeOutline.hpp"

#include "vcmon/report/HtmlRenderer.hpp"
#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/ReportError.hpp"
#include "vcmon/report/TextRenderer.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <numeric>
#include <sstream>

namespace vcmon::report {
namespace {

using testing::find_nodes;

double us_total(double base) { // summed over figure 12's 4 ranks, as the profile scales them
  double total = 0;
  for (int r = 0; r < 4; ++r) {
    total += static_cast<double>(static_cast<std::uint64_t>(base * 1000 * testing::fig12_scale(r)));
  }
  return total;
}

std::string text_of(const Report& report) {
  std::ostringstream out;
  TextRenderer().render(report, out);
  return out.str();
}

// The procedure nodes named `name` activated at line `call_line`, in preorder.
std::vector<const ReportNode*> activations(const ReportTree& tree, const std::string& name,
                                           std::uint32_t call_line) {
  return find_nodes(tree, [&](const ReportNode& n) {
    return n.kind == NodeKind::Procedure && n.name == name && n.call_pos &&
           n.call_pos->line == call_line;
  });
}

// The child of `node` of `kind` at `line`.
const ReportNode* child_at(const ReportTree& tree, const ReportNode& node, NodeKind kind,
                           std::uint32_t line) {
  for (const auto c : node.children) {
    if (tree.node(c).kind == kind && tree.node(c).pos.line == line) {
      return &tree.node(c);
    }
  }
  return nullptr;
}

TEST(ContextReport, Figure12HasNoApportionedValueAndItsHotPathEndsAtP4InLoop2) {
  testing::TempDir dir;
  // Through the real writer and reader: derived contexts come back whole.
  const Report report = build_report(dir.round_trip(testing::figure12_context_profile()));
  ASSERT_TRUE(report.header.contexts);
  for (const auto& node : report.tree.nodes()) {
    EXPECT_FALSE(node.apportioned) << node.name << " at line " << node.pos.line;
  }
  EXPECT_EQ(testing::outline(report.tree),
            testing::outline(build_report(testing::figure12_profile()).tree))
      << "the same paths as the per-site tree of figure 12";

  // p3 under p1 and under p2, each with its own loop1, loop2 and p4: the contexts' values.
  const auto p3 = activations(report.tree, "p3", 5);
  ASSERT_EQ(p3.size(), 1u);
  EXPECT_EQ(p3[0]->time.total, us_total(testing::kFig12P3ViaP1));
  const auto* loop1 = child_at(report.tree, *p3[0], NodeKind::Loop, 11);
  ASSERT_NE(loop1, nullptr);
  EXPECT_EQ(loop1->time.total, us_total(testing::kFig12CtxLoop1ViaP1));
  EXPECT_EQ(loop1->iterations, 4 * 10.0);
  const auto p4_in_loop = activations(report.tree, "p4", 14);
  ASSERT_EQ(p4_in_loop.size(), 2u);
  EXPECT_EQ(p4_in_loop[0]->time.total, us_total(testing::kFig12CtxP4InLoopViaP1));
  EXPECT_EQ(p4_in_loop[1]->time.total,
            us_total(testing::kFig12P4InLoop) - us_total(testing::kFig12CtxP4InLoopViaP1));
  EXPECT_EQ(p4_in_loop[0]->count, 4 * 100.0);
  // The statements in p3 run in two contexts: their partners are per site, so not listed.
  for (const auto* e :
       find_nodes(report.tree, [](const ReportNode& n) { return n.kind == NodeKind::Comm; })) {
    EXPECT_TRUE(e->partners_elsewhere);
    EXPECT_TRUE(e->children.empty());
    EXPECT_EQ(e->self_ns, e->time.total);
  }

  // The hot path: main, p2, p3, loop1, loop2, p4 called in loop2.
  ASSERT_GE(report.hot_path.size(), 2u);
  const ReportNode& last = report.hot_path.back();
  EXPECT_EQ(last.name, "p4");
  ASSERT_TRUE(last.call_pos);
  EXPECT_EQ(last.call_pos->line, 14u);
  EXPECT_EQ(last.time.total,
            us_total(testing::kFig12P4InLoop) - us_total(testing::kFig12CtxP4InLoopViaP1));
  std::vector<std::string> walk;
  for (const auto& step : report.hot_path) {
    walk.push_back(step.name + "@" + std::to_string(step.pos.line));
  }
  EXPECT_EQ(testing::joined_lines(walk),
            testing::joined_lines(
                {"program@0", "main@1", "p2@6", "p3@8", "loop@11", "loop@13", "p4@15"}));

  // The text says what the tree is and carries no ~ anywhere.
  const std::string text = text_of(report);
  EXPECT_NE(text.find("calling contexts merged by path, exact"), std::string::npos);
  EXPECT_EQ(text.find('~'), std::string::npos) << text;
}

TEST(ContextReport, PerSiteTotalsKeepThePapersView) {
  const Report report = build_report(testing::figure12_context_profile());
  auto row = [&](NodeKind kind, std::uint32_t line, std::uint32_t call_line) -> const ReportNode* {
    for (const auto& site : report.sites) {
      if (site.kind == kind && site.pos.line == line &&
          (call_line == 0 || (site.call_pos && site.call_pos->line == call_line))) {
        return &site;
      }
    }
    return nullptr;
  };
  const auto* p4 = row(NodeKind::Procedure, 15, 14);
  ASSERT_NE(p4, nullptr);
  EXPECT_EQ(p4->time.total, us_total(testing::kFig12P4InLoop));
  EXPECT_EQ(p4->count, 4 * 200.0);
  const auto* loop1 = row(NodeKind::Loop, 11, 0);
  ASSERT_NE(loop1, nullptr);
  EXPECT_EQ(loop1->time.total, us_total(testing::kFig12Loop1));
  ASSERT_NE(row(NodeKind::Comm, 12, 0), nullptr);
  // Costliest first: main leads.
  EXPECT_EQ(report.sites.front().name, "main");
  EXPECT_TRUE(
      std::is_sorted(report.sites.begin(), report.sites.end(),
                     [](const auto& a, const auto& b) { return a.time.total > b.time.total; }));
  EXPECT_NE(text_of(report).find("Per-site totals"), std::string::npos);
}

// Issue 13's case: work(10 n) from one call site, work(n) from the other. Each context has its
// own exact counts and times, on every rank; the per-site tree splits the loop by time.
TEST(ContextReport, AProcedureCalledDifferentlyFromTwoSitesKeepsEachCallersNumbers) {
  testing::TempDir dir;
  const tables::Profile profile = dir.round_trip(testing::two_callers_profile());
  const auto n = static_cast<double>(testing::kWorkIterations);
  for (int r = 0; r < 3; ++r) {
    ReportOptions options;
    options.rank = r;
    const Report report = build_report(profile, options);
    ASSERT_TRUE(report.header.contexts);
    const double scale = 1 + r;
    const auto heavy = activations(report.tree, "work", 2);
    const auto light = activations(report.tree, "work", 3);
    ASSERT_EQ(heavy.size(), 1u);
    ASSERT_EQ(light.size(), 1u);
    EXPECT_EQ(heavy[0]->time.total, testing::kWorkHeavy * 1000 * scale) << "rank " << r;
    EXPECT_EQ(light[0]->time.total, testing::kWorkLight * 1000 * scale) << "rank " << r;
    const auto* heavy_loop = child_at(report.tree, *heavy[0], NodeKind::Loop, 6);
    const auto* light_loop = child_at(report.tree, *light[0], NodeKind::Loop, 6);
    ASSERT_NE(heavy_loop, nullptr);
    ASSERT_NE(light_loop, nullptr);
    EXPECT_EQ(heavy_loop->count, 1.0) << "rank " << r;
    EXPECT_EQ(light_loop->count, 1.0) << "rank " << r;
    EXPECT_EQ(heavy_loop->iterations, 10 * n) << "rank " << r;
    EXPECT_EQ(light_loop->iterations, n) << "rank " << r;
    const auto* heavy_reduce = child_at(report.tree, *heavy_loop, NodeKind::Comm, 7);
    const auto* light_reduce = child_at(report.tree, *light_loop, NodeKind::Comm, 7);
    ASSERT_NE(heavy_reduce, nullptr);
    ASSERT_NE(light_reduce, nullptr);
    EXPECT_EQ(heavy_reduce->count, 10 * n);
    EXPECT_EQ(light_reduce->count, n);
    EXPECT_EQ(heavy_reduce->comm->bytes, 10 * n * 8);
    for (const auto& node : report.tree.nodes()) {
      EXPECT_FALSE(node.apportioned);
    }
  }
  // All ranks: merged by path though rank 2 lists the light call first.
  const Report all = build_report(profile);
  const auto heavy = activations(all.tree, "work", 2);
  ASSERT_EQ(heavy.size(), 1u);
  EXPECT_EQ(heavy[0]->time.total, testing::kWorkHeavy * 1000 * (1 + 2 + 3));
  EXPECT_EQ(heavy[0]->time.min, testing::kWorkHeavy * 1000);
  EXPECT_EQ(heavy[0]->time.max_rank, 2);
  EXPECT_EQ(heavy[0]->count, 3.0);
  // The barrier has one context: its partner (the collective) is listed under it.
  const auto barrier = find_nodes(
      all.tree, [](const ReportNode& n) { return n.kind == NodeKind::Comm && n.pos.line == 4; });
  ASSERT_EQ(barrier.size(), 1u);
  EXPECT_FALSE(barrier[0]->partners_elsewhere);
  ASSERT_EQ(barrier[0]->children.size(), 1u);
  EXPECT_EQ(all.tree.node(barrier[0]->children[0]).kind, NodeKind::Partner);
  EXPECT_EQ(barrier[0]->self_ns, 0.0);

  // Without contexts the loop's records are split by the calls' time, 1 : 10: the light
  // call's loop gets 2/11 of an execution per rank instead of its one, marked ~.
  const Report apportioned = build_report(testing::two_callers_profile(false));
  EXPECT_FALSE(apportioned.header.contexts);
  const auto light = activations(apportioned.tree, "work", 3);
  ASSERT_EQ(light.size(), 1u);
  const auto* light_loop = child_at(apportioned.tree, *light[0], NodeKind::Loop, 6);
  ASSERT_NE(light_loop, nullptr);
  EXPECT_TRUE(light_loop->apportioned);
  EXPECT_NE(light_loop->count, 3.0);
}

TEST(ContextReport, JsonAndHtmlCarryTheContextTree) {
  const Report report = build_report(testing::two_callers_profile());
  const nlohmann::json document = JsonRenderer().to_json(report);
  std::ifstream in(VCMON_REPORT_SCHEMA);
  const testing::JsonSchemaChecker checker(nlohmann::json::parse(in));
  EXPECT_EQ(testing::joined_lines(checker.problems(document)), "");
  EXPECT_EQ(document["header"]["tree_source"], "contexts");
  EXPECT_FALSE(document["sites"].empty());
  const auto& main_node = document["tree"]["children"][0];
  ASSERT_EQ(main_node["name"], "main");
  std::vector<double> iterations;
  for (const auto& work : main_node["children"]) {
    if (work["name"] == "work") {
      iterations.push_back(work["children"][0]["iterations"].get<double>());
      EXPECT_FALSE(work["apportioned"].get<bool>());
    }
  }
  const double n = static_cast<double>(testing::kWorkIterations);
  EXPECT_EQ(iterations, (std::vector<double>{3 * 10 * n, 3 * n}));

  std::ostringstream html;
  HtmlRenderer().render(report, html);
  EXPECT_NE(html.str().find("\"tree_source\":\"contexts\""), std::string::npos);
  EXPECT_NE(html.str().find("id=\"sites\""), std::string::npos);
}

TEST(ContextReport, ReadingARankAtATimeGivesTheSameReport) {
  testing::TempDir dir;
  const auto path = dir / "work.vcmon";
  tables::write_profile_file(testing::two_callers_profile(), path);
  const tables::ProfileReader reader(path);
  const auto streamed = JsonRenderer().to_json(build_report(reader));
  const auto whole = JsonRenderer().to_json(build_report(tables::read_profile_file(path)));
  EXPECT_EQ(streamed, whole);
  ReportOptions missing;
  missing.rank = 7;
  try {
    build_report(reader, missing);
    FAIL() << "rank 7 accepted";
  } catch (const ReportError& e) {
    EXPECT_STREQ(e.what(), "rank 7 is not in the profile (it holds 3 ranks)");
  }
}

TEST(ContextReport, RecursionCountsOnceInTheOutermostActivation) {
  // fact -> fact: the inner activation's context counts, adds no time; what it ran is in the
  // outer one.
  tables::Profile profile = testing::factorial_profile();
  auto& rec = profile.ranks[0];
  const auto& g = profile.graph;
  auto ctx = [&](std::uint32_t parent, std::uint32_t line, std::uint64_t count,
                 std::uint64_t time) {
    tables::ContextRecord c;
    c.parent = parent;
    for (const auto& s : g.sites()) {
      if (s.pos.line == line) {
        c.site = s.id;
      }
    }
    c.count = count;
    c.time_ns = time;
    rec.contexts.push_back(c);
    return static_cast<std::uint32_t>(rec.contexts.size());
  };
  const auto m = ctx(0, 1, 1, 1000);
  const auto fact = ctx(ctx(m, 2, 1, 0), 3, 1, 900);
  ctx(ctx(fact, 4, 9, 0), 3, 9, 0);
  tables::ContextRecord bcast;
  bcast.parent = fact;
  bcast.site = 4; // MPI_Bcast at fact.c:5
  bcast.count = 10;
  bcast.time_ns = 60;
  bcast.sync_delay_ns = 40;
  bcast.bytes = 80;
  rec.contexts.push_back(bcast);
  const Report report = build_report(profile);
  const auto inner = activations(report.tree, "fact", 4);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_TRUE(inner[0]->recursive);
  EXPECT_EQ(inner[0]->count, 9.0);
  EXPECT_EQ(inner[0]->self_ns, 0.0);
  const auto outer = activations(report.tree, "fact", 2);
  ASSERT_EQ(outer.size(), 1u);
  EXPECT_FALSE(outer[0]->recursive);
  EXPECT_EQ(outer[0]->self_ns, 900.0 - 100.0);
}

TEST(ContextReport, AProcedureRunInsideAnMpiCallIsItsChild) {
  // A reduction operator (or an error or signal handler) entered inside MPI_Bcast: its context
  // is the statement's. It was left out of the tree, while the per-site rows counted it.
  tables::Profile profile = testing::factorial_profile();
  auto& rec = profile.ranks[0];
  const auto line = [&](std::uint32_t at) { return testing::site_at(profile.graph, at).id; };
  const auto m = testing::context(rec, 0, line(1), 1, 1000);
  testing::context(rec, testing::context(rec, m, line(2), 1), line(3), 1, 900);
  const auto bcast = testing::context(rec, m, 4, 10, 60); // MPI_Bcast at fact.c:5, under main
  testing::context(rec, bcast, line(3), 2, 25);           // fact, run by the MPI call
  const Report report = build_report(profile);
  const auto comms =
      find_nodes(report.tree, [](const ReportNode& n) { return n.kind == NodeKind::Comm; });
  ASSERT_EQ(comms.size(), 1u);
  const ReportNode* inside = nullptr;
  for (const auto c : comms[0]->children) {
    if (report.tree.node(c).kind == NodeKind::Procedure) {
      inside = &report.tree.node(c);
    }
  }
  ASSERT_NE(inside, nullptr);
  EXPECT_EQ(inside->name, "fact");
  EXPECT_EQ(inside->count, 2.0);
  EXPECT_EQ(inside->time.total, 25.0);
  ASSERT_TRUE(inside->call_pos);
  EXPECT_EQ(inside->call_pos->line, 5u);
  // Its time is the statement's, which the partner rows divide: it takes none of its self.
  EXPECT_EQ(inside->counted_ns, 0.0);
  EXPECT_EQ(comms[0]->self_ns, 60.0);
}

TEST(ContextReport, ContradictoryContextsAreRefusedWithAMessage) {
  tables::Profile profile = testing::two_callers_profile();
  // Rank 1's last context (the barrier under main) listed again as its eleventh.
  profile.ranks[1].contexts.push_back(profile.ranks[1].contexts.back());
  try {
    build_report(profile);
    FAIL() << "a repeated path was accepted";
  } catch (const ReportError& e) {
    EXPECT_STREQ(e.what(), "rank 1: context 10 repeats the path of an earlier context (site 3)");
  }
  profile = testing::two_callers_profile();
  profile.ranks[0].contexts[1].site = 99;
  try {
    build_report(profile);
    FAIL() << "a context of a site outside the program was accepted";
  } catch (const ReportError& e) {
    EXPECT_STREQ(e.what(), "rank 0: context 1 names site 99, which the profile does not have");
  }
}

} // namespace
} // namespace vcmon::report
