#include "vcmon/vclock/WildcardOrder.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace vcmon::vclock {
namespace {

TEST(WildcardOrder, TakesTheEarliestArrivalWhenNobodyElseCanSend) {
  const std::vector<WildcardCandidate> candidates{{2, 50, 0}, {1, 40, 1}, {3, 45, 2}};
  const WildcardDecision decision = decide_wildcard(candidates, {});
  EXPECT_EQ(decision.verdict, WildcardVerdict::Take);
  EXPECT_EQ(decision.earliest, (WildcardCandidate{1, 40, 1}));
  EXPECT_TRUE(decision.blocking_sources.empty());
}

TEST(WildcardOrder, EqualArrivalsGoToTheLowerRankThenTheLowerSlot) {
  const std::vector<WildcardCandidate> by_rank{{5, 40, 0}, {2, 40, 1}};
  EXPECT_EQ(decide_wildcard(by_rank, {}).earliest, (WildcardCandidate{2, 40, 1}));
  const std::vector<WildcardCandidate> by_slot{{4, 40, 3}, {4, 40, 1}};
  EXPECT_EQ(decide_wildcard(by_slot, {}).earliest, (WildcardCandidate{4, 40, 1}));
}

TEST(WildcardOrder, ASenderThatCanStillSendEarlierBlocksAndIsNamed) {
  const std::vector<WildcardCandidate> candidates{{1, 40, 0}};
  const std::vector<SenderBound> senders{{3, 39}, {2, 41}, {0, 12}};
  const WildcardDecision decision = decide_wildcard(candidates, senders);
  EXPECT_EQ(decision.verdict, WildcardVerdict::Wait);
  EXPECT_EQ(decision.earliest, (WildcardCandidate{1, 40, 0}));
  EXPECT_EQ(decision.blocking_sources, (std::vector<int>{0, 3}));
}

TEST(WildcardOrder, AnEqualBoundBlocksOnlyFromALowerRank) {
  const std::vector<WildcardCandidate> candidates{{2, 40, 0}};
  const std::vector<SenderBound> lower{{1, 40}};
  const std::vector<SenderBound> higher{{3, 40}};
  EXPECT_EQ(decide_wildcard(candidates, lower).blocking_sources, std::vector<int>{1});
  EXPECT_EQ(decide_wildcard(candidates, higher).verdict, WildcardVerdict::Take);
}

TEST(WildcardOrder, ASourceWithAMessageThereCannotOvertakeIt) {
  // Rank 3's next send could be at 10, but its message at 60 is matched first (MPI
  // non-overtaking), so rank 1's message at 40 is safe.
  const std::vector<WildcardCandidate> candidates{{1, 40, 0}, {3, 60, 1}};
  const std::vector<SenderBound> senders{{3, 10}};
  EXPECT_EQ(decide_wildcard(candidates, senders).verdict, WildcardVerdict::Take);
}

TEST(WildcardOrder, ASenderThatNeverSendsAgainDoesNotBlock) {
  const std::vector<WildcardCandidate> candidates{{1, 40, 0}};
  const std::vector<SenderBound> senders{{0, UINT64_MAX}};
  EXPECT_EQ(decide_wildcard(candidates, senders).verdict, WildcardVerdict::Take);
}

TEST(WildcardOrder, WithoutCandidatesEverySenderThatMaySendBlocks) {
  const std::vector<SenderBound> senders{{4, 7}, {2, UINT64_MAX}, {1, 90}};
  const WildcardDecision decision = decide_wildcard({}, senders);
  EXPECT_EQ(decision.verdict, WildcardVerdict::Wait);
  EXPECT_FALSE(decision.earliest);
  EXPECT_EQ(decision.blocking_sources, (std::vector<int>{1, 4}));
  const std::vector<SenderBound> none_left{{2, UINT64_MAX}};
  EXPECT_EQ(decide_wildcard({}, none_left).verdict, WildcardVerdict::NothingCanArrive);
}

TEST(WildcardOrder, CompletionsAreReportedInOrderUpToTheFirstUnsafeOne) {
  // Waitsome: requests 0..3 completed at these times; rank 9 may still complete something
  // at 35, so only what completed before it is safe.
  const std::vector<WildcardCandidate> done{{4, 50, 0}, {2, 30, 1}, {6, 20, 2}, {1, 30, 3}};
  const std::vector<SenderBound> pending{{9, 35}};
  EXPECT_EQ(safe_in_order(done, pending, 100),
            (std::vector<WildcardCandidate>{{6, 20, 2}, {1, 30, 3}, {2, 30, 1}}));
  EXPECT_EQ(safe_in_order(done, {}, 100).size(), 4u);
}

TEST(WildcardOrder, PollingSeesOnlyWhatHasArrivedByItsClock) {
  // Testsome/Iprobe at virtual time 25: the completion at 30 has not happened yet.
  const std::vector<WildcardCandidate> done{{2, 30, 0}, {6, 20, 1}};
  EXPECT_EQ(safe_in_order(done, {}, 25), (std::vector<WildcardCandidate>{{6, 20, 1}}));
  EXPECT_TRUE(safe_in_order(done, {}, 19).empty());
}

} // namespace
} // namespace vcmon::vclock
