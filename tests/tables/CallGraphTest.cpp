#include "vcmon/tables/CallGraph.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace vcmon::tables {
namespace {

// A small program built procedure by procedure; calls name procedures by symbol.
struct Program {
  ProgramGraph g;
  SiteId proc(const std::string& name) {
    return g.add_site(SiteKind::Procedure, {"rec.c", line++, 1}, name, kNoSite, name);
  }
  SiteId call(SiteId parent, const std::string& callee) {
    return g.add_site(SiteKind::Call, {"rec.c", line++, 5}, callee, parent, callee);
  }
  SiteId loop(SiteId parent) {
    return g.add_site(SiteKind::Loop, {"rec.c", line++, 3}, "for", parent);
  }
  std::uint32_t line = 1;
};

TEST(CallGraph, SelfRecursiveFactIsItsOwnRecursiveComponent) {
  Program p;
  const SiteId main = p.proc("main");
  p.call(main, "fact");
  const SiteId fact = p.proc("fact");
  p.call(fact, "fact");
  const CallGraph cg(p.g);
  EXPECT_TRUE(cg.is_recursive(fact));
  EXPECT_FALSE(cg.is_recursive(main));
  EXPECT_NE(cg.component_of(main), cg.component_of(fact));
  EXPECT_EQ(cg.recursive_components(), (std::vector<std::vector<SiteId>>{{fact}}));
}

TEST(CallGraph, MutuallyRecursiveEvenAndOddShareOneComponent) {
  Program p;
  const SiteId main = p.proc("main");
  p.call(main, "is_even");
  const SiteId even = p.proc("is_even");
  p.call(even, "is_odd");
  const SiteId odd = p.proc("is_odd");
  p.call(odd, "is_even");
  const CallGraph cg(p.g);
  EXPECT_EQ(cg.component_of(even), cg.component_of(odd));
  EXPECT_NE(cg.component_of(main), cg.component_of(even));
  EXPECT_TRUE(cg.is_recursive(even));
  EXPECT_TRUE(cg.is_recursive(odd));
  EXPECT_FALSE(cg.is_recursive(main));
  EXPECT_EQ(cg.recursive_components(), (std::vector<std::vector<SiteId>>{{even, odd}}));
}

TEST(CallGraph, NonRecursiveChainHasNoRecursiveComponent) {
  Program p;
  const SiteId a = p.proc("a");
  p.call(a, "b");
  p.call(a, "c"); // a diamond: a calls b and c, b calls c
  const SiteId b = p.proc("b");
  p.call(b, "c");
  const SiteId c = p.proc("c");
  const CallGraph cg(p.g);
  for (SiteId proc : {a, b, c}) {
    EXPECT_FALSE(cg.is_recursive(proc));
  }
  EXPECT_NE(cg.component_of(a), cg.component_of(b));
  EXPECT_NE(cg.component_of(b), cg.component_of(c));
  EXPECT_TRUE(cg.recursive_components().empty());
}

TEST(CallGraph, CallsInsideNestedLoopsAreEdgesOfTheirProcedure) {
  Program p;
  const SiteId walk = p.proc("walk");
  p.call(p.loop(p.loop(walk)), "visit");
  const SiteId visit = p.proc("visit");
  p.call(p.loop(visit), "walk");
  const SiteId leaf = p.proc("leaf");
  p.call(leaf, "external_function"); // unresolved: no edge
  const CallGraph cg(p.g);
  EXPECT_EQ(cg.component_of(walk), cg.component_of(visit));
  EXPECT_FALSE(cg.is_recursive(leaf));
  EXPECT_EQ(cg.recursive_components(), (std::vector<std::vector<SiteId>>{{walk, visit}}));
}

TEST(CallGraph, OnlyProceduresHaveComponents) {
  Program p;
  const SiteId main = p.proc("main");
  const SiteId l = p.loop(main);
  const CallGraph cg(p.g);
  EXPECT_THROW(cg.component_of(l), std::invalid_argument);
  EXPECT_THROW(cg.component_of(42), std::out_of_range);
}

} // namespace
} // namespace vcmon::tables
