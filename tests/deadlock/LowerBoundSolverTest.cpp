#include "vcmon/deadlock/LowerBoundSolver.hpp"

#include "StateBuilders.hpp"

#include <gtest/gtest.h>

namespace vcmon::deadlock {
namespace {

using testing::blocked_all;
using testing::blocked_any;
using testing::finished;
using testing::running;

TEST(LowerBoundSolver, RunningIsItsClockAndFinishedNeverSends) {
  const WaitGraph graph({running(0, 17), finished(1)});
  const LowerBounds bounds = LowerBoundSolver(graph).solve();
  EXPECT_EQ(bounds.at(0), 17u);
  EXPECT_EQ(bounds.at(1), kNever);
}

TEST(LowerBoundSolver, OrTakesTheEarliestAndAndTheLatestButNeverBelowTheClock) {
  const WaitGraph graph({running(0, 10), running(1, 40), blocked_any(2, 5, {0, 1}),
                         blocked_all(3, 5, {0, 1}), blocked_any(4, 25, {0, 1}),
                         blocked_any(5, 0, {1, 6}), finished(6)});
  const LowerBounds bounds = LowerBoundSolver(graph).solve();
  // A blocked process sends strictly after it resumes: one more than where it resumes.
  EXPECT_EQ(bounds.at(2), 11u);
  EXPECT_EQ(bounds.at(3), 41u);
  EXPECT_EQ(bounds.at(4), 26u);
  EXPECT_EQ(bounds.at(5), 41u); // the finished rank offers nothing
}

TEST(LowerBoundSolver, AMessageAlreadyThereEndsAnOrWait) {
  ProcessState deciding = blocked_any(1, 8, {2});
  deciding.present_arrival_ns = 30;
  const WaitGraph graph({deciding, blocked_any(2, 0, {1})});
  const LowerBounds bounds = LowerBoundSolver(graph).solve();
  EXPECT_EQ(bounds.at(1), 31u);
  EXPECT_EQ(bounds.at(2), 32u);
}

TEST(LowerBoundSolver, ProcessesWaitingOnEachOtherWithNothingToStartThemNeverSend) {
  const WaitGraph graph(
      {blocked_any(0, 5, {1}), blocked_all(1, 9, {0}), blocked_any(2, 1, {0, 3}), running(3, 4)});
  const LowerBounds bounds = LowerBoundSolver(graph).solve();
  EXPECT_EQ(bounds.at(0), kNever);
  EXPECT_EQ(bounds.at(1), kNever);
  EXPECT_EQ(bounds.at(2), 5u);
}

TEST(LowerBoundSolver, APinnedDeciderStartsTheChainsThatWaitOnIt) {
  // Figure 4 without P0: P3 waits for P2, P2 for P1 (the decider), P1 for P3.
  const WaitGraph graph(
      {blocked_any(1, 10, {3}), blocked_any(2, 15, {1}), blocked_any(3, 20, {2})});
  const LowerBoundSolver solver(graph);
  const LowerBounds pinned = solver.solve(PinnedBound{1, 31});
  EXPECT_EQ(pinned.at(1), 31u);
  EXPECT_EQ(pinned.at(2), 32u);
  EXPECT_EQ(pinned.at(3), 33u);
  EXPECT_EQ(solver.solve().at(3), kNever);
  EXPECT_EQ(solver.solve(PinnedBound{1, 12}).at(3), 21u);
}

} // namespace
} // namespace vcmon::deadlock
