#include "vcmon/deadlock/WaitGraph.hpp"

#include "StateBuilders.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace vcmon::deadlock {
namespace {

using testing::blocked_any;
using testing::in_collective;
using testing::running;

const auto anyone = [](Rank) { return true; };

TEST(WaitGraph, RejectsDuplicateRanksAndWaitsOnUnknownRanks) {
  EXPECT_THROW(WaitGraph({running(1, 0), running(1, 5)}), std::invalid_argument);
  EXPECT_THROW(WaitGraph({blocked_any(0, 0, {7})}), std::invalid_argument);
  EXPECT_THROW(WaitGraph({running(0, 0)}).vertex(3), std::out_of_range);
}

TEST(WaitGraph, OnlyBlockedProcessesWait) {
  ProcessState stale = running(0, 3);
  stale.waits_on = {1}; // left over from an earlier wait; a running process waits for nobody
  const WaitGraph graph({stale, running(1, 0)});
  EXPECT_EQ(boost::num_edges(graph.graph()), 0u);
  EXPECT_EQ(graph.reachable_through(0, anyone), std::vector<Rank>{0});
}

TEST(WaitGraph, FollowsWaitsThroughOthers) {
  // 3 waits for 2, 2 for 1; 0 runs.
  const WaitGraph graph(
      {running(0, 1), blocked_any(1, 5, {0, 3}), blocked_any(2, 5, {1}), blocked_any(3, 5, {2})});
  EXPECT_EQ(graph.reachable_through(3, anyone), (std::vector<Rank>{0, 1, 2, 3}));
  EXPECT_EQ(graph.reachable_through(0, anyone), std::vector<Rank>{0});
  EXPECT_EQ(graph.state(2).clock_ns, 5u);
}

TEST(WaitGraph, FindsTheCycleAmongStuckProcessesInWaitOrder) {
  const WaitGraph graph({running(0, 1), blocked_any(1, 5, {0, 3}), blocked_any(2, 5, {1}),
                         blocked_any(3, 5, {2}), blocked_any(4, 5, {3})});
  const auto not_zero = [](Rank r) { return r != 0; };
  EXPECT_EQ(graph.find_cycle(1, not_zero), (std::vector<Rank>{1, 3, 2}));
  // From outside the cycle it starts at the lowest rank on it.
  EXPECT_EQ(graph.find_cycle(4, not_zero), (std::vector<Rank>{1, 3, 2}));
  EXPECT_EQ(graph.reachable_through(4, not_zero), (std::vector<Rank>{1, 2, 3, 4}));
  // Without 2 the chain is broken.
  const auto neither = [](Rank r) { return r != 0 && r != 2; };
  EXPECT_TRUE(graph.find_cycle(4, neither).empty());
  EXPECT_EQ(graph.reachable_through(4, neither), (std::vector<Rank>{3, 4}));
  EXPECT_TRUE(graph.reachable_through(0, not_zero).empty());
}

TEST(WaitGraph, AProcessWaitingOnItselfIsACycleOfOne) {
  const WaitGraph graph({blocked_any(2, 0, {2})});
  EXPECT_EQ(graph.find_cycle(2, [](Rank) { return true; }), std::vector<Rank>{2});
}

TEST(WaitGraph, MembersInsideOneCollectiveWaitOnlyForThoseOutside) {
  // 0 and 1 are inside collective 7, waiting for 2 (running) and 3, which is inside
  // another collective (8) with 2.
  const WaitGraph graph({in_collective(0, 4, {1, 2, 3}, 7), in_collective(1, 6, {0, 2, 3}, 7),
                         running(2, 3), in_collective(3, 5, {2}, 8)});
  EXPECT_EQ(graph.reachable_through(0, anyone), (std::vector<Rank>{0, 2, 3}));
  EXPECT_EQ(graph.reachable_through(1, anyone), (std::vector<Rank>{1, 2, 3}));
}

} // namespace
} // namespace vcmon::deadlock
