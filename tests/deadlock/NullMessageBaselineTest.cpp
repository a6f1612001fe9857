#include "vcmon/deadlock/NullMessageBaseline.hpp"

#include "vcmon/deadlock/CycleBreaker.hpp"
#include "vcmon/deadlock/NullMessageEndpoint.hpp"
#include "vcmon/deadlock/SnapshotStateExchange.hpp"

#include "Figure4Scenario.hpp"
#include "StateBuilders.hpp"

#include <gtest/gtest.h>

namespace vcmon::deadlock {
namespace {

using testing::blocked_all;
using testing::blocked_any;
using testing::Figure4Scenario;
using testing::running;

TEST(NullMessageEndpoint, AdvancesWithWhatItHearsAndAnnouncesWithLookahead) {
  NullMessageEndpoint any(blocked_any(2, 10, {0, 1}), {{0, 5}, {1, 30}}, 4);
  EXPECT_EQ(any.safe_until(), 10u);
  any.receive_null(0, 25);
  EXPECT_EQ(any.safe_until(), 25u);
  EXPECT_EQ(any.announcement(), 29u);
  any.receive_null(0, 12); // an older, lower bound changes nothing
  EXPECT_EQ(any.channel_bound(0), 25u);

  NullMessageEndpoint all(blocked_all(3, 10, {0, 1}), {{0, 5}, {1, 30}}, 4);
  EXPECT_EQ(all.safe_until(), 30u);
  NullMessageEndpoint done(blocked_all(4, 10, {0}), {{0, kNever}}, 4);
  EXPECT_EQ(done.announcement(), kNever);
}

TEST(NullMessageBaseline, Figure4GetsThereButWithManyMoreMessagesThanCycleBreaking) {
  const Figure4Scenario figure;
  SnapshotStateExchange exchange(figure.others);
  const Decision cycle = CycleBreaker().decide(figure.receive, exchange);

  const Decision small = NullMessageBaseline(100, 100'000).decide(figure.receive, figure.others);
  EXPECT_EQ(small.outcome, Outcome::Take);
  EXPECT_EQ(small.taken, cycle.taken);
  EXPECT_GE(small.control_messages, 10 * cycle.control_messages);

  const Decision large = NullMessageBaseline(5'000, 100'000).decide(figure.receive, figure.others);
  EXPECT_EQ(large.outcome, Outcome::Take);
  EXPECT_LT(large.control_messages, small.control_messages);
  EXPECT_LT(large.rounds, small.rounds);
}

TEST(NullMessageBaseline, ZeroLookaheadNeverGetsPastTheCycle) {
  const Figure4Scenario figure;
  const Decision decision = NullMessageBaseline(0, 1'000).decide(figure.receive, figure.others);
  EXPECT_EQ(decision.outcome, Outcome::Wait);
  EXPECT_EQ(decision.blocking, std::vector<Rank>{3});
}

TEST(NullMessageBaseline, ARunningSenderBehindTheCandidateLeavesItWaiting) {
  Figure4Scenario figure;
  figure.others[2] = running(3, 25'000);
  const Decision decision = NullMessageBaseline(100, 100'000).decide(figure.receive, figure.others);
  EXPECT_EQ(decision.outcome, Outcome::Wait);
  EXPECT_EQ(decision.blocking, std::vector<Rank>{3});
  EXPECT_LT(decision.rounds, 100'000u); // it goes quiet instead of running out of rounds
}

TEST(NullMessageBaseline, RunsOutOfRoundsOnARealDeadlockInsteadOfNamingIt) {
  const UndecidedReceive receive{blocked_any(0, 5, {1}), {}, {}};
  const Decision decision = NullMessageBaseline(10, 50).decide(receive, {blocked_any(1, 7, {0})});
  EXPECT_EQ(decision.outcome, Outcome::Wait);
  EXPECT_EQ(decision.rounds, 50u);
  EXPECT_EQ(decision.control_messages, 100u);
}

} // namespace
} // namespace vcmon::deadlock
