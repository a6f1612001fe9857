#include "vcmon/tables/ProgramGraph.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <tuple>
#include <vector>

namespace vcmon::tables {
namespace {

SourcePos at(std::uint32_t line, std::string file = "fig12.c") {
  return {std::move(file), line, 1};
}

std::string symbol_of(const std::string& name) {
  return "_Z" + std::to_string(name.size()) + name + "v";
}

// The paper's figure 12 (docs/design.md, "Sites and the program graph"), one site per line.
struct Figure12 {
  ProgramGraph g;
  SiteId proc(std::uint32_t line, const std::string& name) {
    return g.add_site(SiteKind::Procedure, at(line), name, kNoSite, symbol_of(name));
  }
  SiteId call(std::uint32_t line, SiteId parent, const std::string& callee) {
    return g.add_site(SiteKind::Call, at(line), callee, parent, symbol_of(callee));
  }
  SiteId main = proc(1, "main");
  SiteId c2 = call(2, main, "p1");
  SiteId c3 = call(3, main, "p2");
  SiteId p1 = proc(4, "p1");
  SiteId c5 = call(5, p1, "p3");
  SiteId p2 = proc(6, "p2");
  SiteId c7 = call(7, p2, "p3");
  SiteId p3 = proc(8, "p3");
  SiteId e1 = g.add_site(SiteKind::Comm, at(9), "MPI_Send", p3);
  SiteId c10 = call(10, p3, "p4");
  SiteId loop1 = g.add_site(SiteKind::Loop, at(11), "for", p3);
  SiteId e2 = g.add_site(SiteKind::Comm, at(12), "MPI_Recv", loop1);
  SiteId loop2 = g.add_site(SiteKind::Loop, at(13), "while", loop1);
  SiteId c14 = call(14, loop2, "p4");
  SiteId p4 = proc(15, "p4");

  std::uint32_t line(SiteId id) const { return id == kNoSite ? 0 : g.site(id).pos.line; }
  template <typename Row>
  std::vector<std::tuple<std::uint32_t, std::uint32_t>> lines2(const std::vector<Row>& rows,
                                                               auto first, auto second) const {
    std::vector<std::tuple<std::uint32_t, std::uint32_t>> out;
    for (const Row& r : rows) {
      out.emplace_back(line(r.*first), line(r.*second));
    }
    return out;
  }
  template <typename Row>
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>>
  lines3(const std::vector<Row>& rows, auto first) const {
    std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> out;
    for (const Row& r : rows) {
      out.emplace_back(line(r.*first), line(r.call), line(r.callee));
    }
    return out;
  }
};

using Pairs = std::vector<std::tuple<std::uint32_t, std::uint32_t>>;
using Triples = std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>>;

TEST(ProgramGraph, Figure12GivesExactlyThePapersSixTables) {
  const Figure12 f;
  const StaticTables t = f.g.tables();
  EXPECT_EQ(f.lines3(t.pc, &PCRow::proc),
            (Triples{{1, 2, 4}, {1, 3, 6}, {4, 5, 8}, {6, 7, 8}, {8, 10, 15}}));
  EXPECT_EQ(f.lines2(t.pl, &PLRow::proc, &PLRow::loop), (Pairs{{8, 11}}));
  EXPECT_EQ(f.lines2(t.pcom, &PComRow::proc, &PComRow::comm), (Pairs{{8, 9}}));
  EXPECT_EQ(f.lines2(t.ll, &LLRow::loop, &LLRow::inner), (Pairs{{11, 13}}));
  EXPECT_EQ(f.lines2(t.lcom, &LComRow::loop, &LComRow::comm), (Pairs{{11, 12}}));
  EXPECT_EQ(f.lines3(t.lc, &LCRow::loop), (Triples{{13, 14, 15}}));
}

TEST(ProgramGraph, IdsAreDenseInInsertionOrder) {
  const Figure12 f;
  ASSERT_EQ(f.g.size(), 15u);
  for (SiteId id = 0; id < f.g.size(); ++id) {
    EXPECT_EQ(f.g.site(id).id, id);
    EXPECT_EQ(f.g.site(id).pos.line, id + 1); // figure 12 has one site per line
  }
  EXPECT_THROW(f.g.site(15), std::out_of_range);
}

TEST(ProgramGraph, ChildrenAndEnclosingProcedureFollowTheSiteTree) {
  const Figure12 f;
  EXPECT_EQ(f.g.children(f.p3), (std::vector<SiteId>{f.e1, f.c10, f.loop1}));
  EXPECT_EQ(f.g.children(f.loop1), (std::vector<SiteId>{f.e2, f.loop2}));
  EXPECT_TRUE(f.g.children(f.p4).empty());
  EXPECT_EQ(f.g.enclosing_procedure(f.c14), f.p3);
  EXPECT_EQ(f.g.enclosing_procedure(f.e2), f.p3);
  EXPECT_EQ(f.g.enclosing_procedure(f.p3), f.p3);
  EXPECT_EQ(f.g.enclosing_procedure(f.c2), f.main);
}

TEST(ProgramGraph, AddSiteRejectsParentsThatCannotContainSites) {
  Figure12 f;
  EXPECT_THROW(f.g.add_site(SiteKind::Comm, at(20), "MPI_Send", 99), std::invalid_argument);
  EXPECT_THROW(f.g.add_site(SiteKind::Loop, at(20), "for", f.c2), std::invalid_argument);
  EXPECT_THROW(f.g.add_site(SiteKind::Call, at(20), "p1", f.e1, "_Z2p1v"), std::invalid_argument);
  EXPECT_THROW(f.g.add_site(SiteKind::Procedure, at(20), "nested", f.p1, "_Z6nestedv"),
               std::invalid_argument);
  EXPECT_THROW(f.g.add_site(static_cast<SiteKind>(9), at(20), "bad", kNoSite),
               std::invalid_argument);
  EXPECT_EQ(f.g.size(), 15u) << "a rejected site must not be added";
}

TEST(ProgramGraph, CallsThroughPointersOrToExternalCodeHaveNoCallee) {
  ProgramGraph g;
  const SiteId main = g.add_site(SiteKind::Procedure, at(1), "main", kNoSite, "main");
  const SiteId indirect = g.add_site(SiteKind::Call, at(2), "(*fp)", main);
  const SiteId external = g.add_site(SiteKind::Call, at(3), "printf", main, "printf");
  const SiteId self = g.add_site(SiteKind::Call, at(4), "main", main, "main");
  EXPECT_EQ(g.callee_of(indirect), kNoSite);
  EXPECT_EQ(g.callee_of(external), kNoSite);
  EXPECT_EQ(g.callee_of(self), main);
  EXPECT_EQ(g.find_procedure("main"), main);
  EXPECT_EQ(g.find_procedure("printf"), std::nullopt);
  EXPECT_THROW(g.callee_of(main), std::invalid_argument) << "a procedure is not a call";
  EXPECT_EQ(g.tables().pc,
            (std::vector<PCRow>{
                {main, indirect, kNoSite}, {main, external, kNoSite}, {main, self, main}}));
}

TEST(ProgramGraph, SiteKindsHaveReadableNames) {
  EXPECT_STREQ(to_string(SiteKind::Procedure), "procedure");
  EXPECT_STREQ(to_string(SiteKind::Loop), "loop");
  EXPECT_STREQ(to_string(SiteKind::Call), "call");
  EXPECT_STREQ(to_string(SiteKind::Comm), "comm");
}

TEST(ProgramGraph, MergeRebasesUnitsAndResolvesCallsAcrossThem) {
  ProgramGraph main_unit; // main.c: main calls solve, defined in solver.c
  const SiteId main =
      main_unit.add_site(SiteKind::Procedure, at(3, "main.c"), "main", kNoSite, "main");
  main_unit.add_site(SiteKind::Call, at(5, "main.c"), "solve", main, "_Z5solvev");
  const SiteId helper =
      main_unit.add_site(SiteKind::Procedure, at(9, "main.c"), "helper", kNoSite, "_Z6helperv");

  ProgramGraph solver_unit; // solver.c: solve loops over a call back into main.c's helper
  const SiteId solve =
      solver_unit.add_site(SiteKind::Procedure, at(1, "solver.c"), "solve", kNoSite, "_Z5solvev");
  const SiteId loop = solver_unit.add_site(SiteKind::Loop, at(2, "solver.c"), "for", solve);
  const SiteId call_helper =
      solver_unit.add_site(SiteKind::Call, at(3, "solver.c"), "helper", loop, "_Z6helperv");
  const SiteId send = solver_unit.add_site(SiteKind::Comm, at(4, "solver.c"), "MPI_Send", solve);

  const std::vector<ProgramGraph> units{main_unit, solver_unit};
  const ProgramGraph merged = ProgramGraph::merge(units);
  const SiteId base = 3;
  ASSERT_EQ(merged.size(), 7u);
  for (SiteId i = 0; i < solver_unit.size(); ++i) {
    const Site& s = merged.site(base + i);
    EXPECT_EQ(s.pos, solver_unit.site(i).pos);
    EXPECT_EQ(s.id, base + i);
  }
  EXPECT_EQ(merged.site(base + call_helper).parent, base + loop);
  EXPECT_EQ(merged.site(base + loop).parent, base + solve);

  const StaticTables t = merged.tables();
  EXPECT_EQ(t.pc, (std::vector<PCRow>{{main, 1, base + solve}}));
  EXPECT_EQ(t.lc, (std::vector<LCRow>{{base + loop, base + call_helper, helper}}));
  EXPECT_EQ(t.pl, (std::vector<PLRow>{{base + solve, base + loop}}));
  EXPECT_EQ(t.pcom, (std::vector<PComRow>{{base + solve, base + send}}));
  EXPECT_EQ(solver_unit.callee_of(call_helper), kNoSite) << "unresolved within its own unit";
}

TEST(ProgramGraph, MergedDuplicateDefinitionsResolveToTheFirst) {
  // An inline function defined in a header appears in every unit that includes it.
  ProgramGraph a;
  a.add_site(SiteKind::Procedure, at(1, "util.h"), "square", kNoSite, "_Z6squarei");
  ProgramGraph b;
  const SiteId f = b.add_site(SiteKind::Procedure, at(1, "b.c"), "f", kNoSite, "_Z1fv");
  b.add_site(SiteKind::Procedure, at(1, "util.h"), "square", kNoSite, "_Z6squarei");
  b.add_site(SiteKind::Call, at(2, "b.c"), "square", f, "_Z6squarei");
  const std::vector<ProgramGraph> units{a, b};
  const ProgramGraph merged = ProgramGraph::merge(units);
  EXPECT_EQ(merged.callee_of(3), 0u);
  EXPECT_EQ(b.callee_of(2), 1u);
}

} // namespace
} // namespace vcmon::tables
