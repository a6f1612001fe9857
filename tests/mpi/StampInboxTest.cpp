// The inbox of arrived stamps on its own: order per source, taking from anywhere, putting back,
// the wildcard candidates, and growing past its first capacity while entries wrap around.
#include "mpi/stamps/StampInbox.hpp"

#include <gtest/gtest.h>

#include <deque>

namespace {

using vcmon::runtime::mpi::PendingStamp;
using vcmon::runtime::mpi::StampInbox;

PendingStamp stamp(int source, int tag, std::uint64_t send_vt) {
  PendingStamp entry;
  entry.source = source;
  entry.tag = tag;
  entry.stamp.send_vt_ns = send_vt;
  return entry;
}

std::vector<std::uint64_t> send_times(const StampInbox& inbox) {
  std::vector<std::uint64_t> times;
  for (std::size_t i = 0; i < inbox.size(); ++i) {
    times.push_back(inbox[i].stamp.send_vt_ns);
  }
  return times;
}

TEST(StampInbox, FindsTheFirstMatchOfASourceFromAnIndex) {
  StampInbox inbox;
  inbox.add(stamp(1, 5, 10));
  inbox.add(stamp(2, 5, 20));
  inbox.add(stamp(1, 6, 30));
  inbox.add(stamp(1, 5, 40));
  EXPECT_EQ(inbox.find(1, 5), 0u);
  EXPECT_EQ(inbox.find(1, 5, 1), 3u);
  EXPECT_EQ(inbox.find(1, 6), 2u);
  EXPECT_EQ(inbox.find(1, MPI_ANY_TAG, 1), 2u);
  EXPECT_EQ(inbox.find(1, MPI_ANY_TAG, 3), 3u);
  EXPECT_EQ(inbox.find(3, 5), std::nullopt);
  EXPECT_EQ(inbox.find(1, 5, 4), std::nullopt);
}

TEST(StampInbox, TakingKeepsTheOthersInOrderOnEitherSide) {
  StampInbox inbox;
  for (std::uint64_t t = 1; t <= 9; ++t) {
    inbox.add(stamp(static_cast<int>(t % 3), 0, t));
  }
  EXPECT_EQ(inbox.take(2).stamp.send_vt_ns, 3u); // front half
  EXPECT_EQ(inbox.take(6).stamp.send_vt_ns, 8u); // back half
  EXPECT_EQ(inbox.take(0).stamp.send_vt_ns, 1u);
  EXPECT_EQ(send_times(inbox), (std::vector<std::uint64_t>{2, 4, 5, 6, 7, 9}));
  inbox.put_back(stamp(0, 0, 1));
  EXPECT_EQ(send_times(inbox), (std::vector<std::uint64_t>{1, 2, 4, 5, 6, 7, 9}));
}

TEST(StampInbox, EarliestCandidateCountsOnlyEachSourcesFirstMatch) {
  StampInbox inbox;
  EXPECT_EQ(inbox.earliest_candidate(MPI_ANY_TAG), std::nullopt);
  inbox.add(stamp(1, 5, 50));
  inbox.add(stamp(1, 5, 5)); // behind source 1's first: cannot be taken before it
  inbox.add(stamp(2, 6, 40));
  inbox.add(stamp(3, 5, 45));
  EXPECT_EQ(inbox.earliest_candidate(5), 45u);
  EXPECT_EQ(inbox.earliest_candidate(MPI_ANY_TAG), 40u);
  EXPECT_EQ(inbox.earliest_candidate(7), std::nullopt);
}

// The count of sources present, which ends a scan for each source's first stamp early.
TEST(StampInbox, CountsTheSourcesItHoldsStampsOf) {
  StampInbox inbox;
  EXPECT_EQ(inbox.sources(), 0u);
  inbox.add(stamp(4, 0, 1));
  inbox.add(stamp(4, 0, 2));
  inbox.add(stamp(1, 0, 3));
  EXPECT_EQ(inbox.sources(), 2u);
  inbox.take(0);
  EXPECT_EQ(inbox.sources(), 2u); // source 4 has one more
  inbox.take(0);
  EXPECT_EQ(inbox.sources(), 1u);
  inbox.put_back(stamp(4, 0, 2));
  EXPECT_EQ(inbox.sources(), 2u);
  for (std::uint64_t t = 10; t < 10'000; ++t) { // a flood from one source behind them
    inbox.add(stamp(7, 0, t));
  }
  EXPECT_EQ(inbox.sources(), 3u);
  EXPECT_EQ(inbox.earliest_candidate(0), 2u);
  inbox.add(stamp(2, 0, 1)); // after the flood: still found
  EXPECT_EQ(inbox.earliest_candidate(0), 1u);
}

TEST(StampInbox, SaysWhetherMoreThanACountWereSentByATime) {
  StampInbox inbox;
  inbox.add(stamp(1, 5, 10));
  inbox.add(stamp(2, 6, 20));
  inbox.add(stamp(1, 5, 30));
  EXPECT_TRUE(inbox.sent_more_by(5, 30, 1));
  EXPECT_FALSE(inbox.sent_more_by(5, 30, 2));
  EXPECT_FALSE(inbox.sent_more_by(5, 29, 1));
  EXPECT_TRUE(inbox.sent_more_by(MPI_ANY_TAG, 20, 1));
  EXPECT_FALSE(inbox.sent_more_by(7, 100, 0));
}

// Against a std::deque doing the same: adds at the back, takes near the front and the back,
// puts back at the front, across several growths and with the ring's head wrapped around.
TEST(StampInbox, BehavesAsAQueueThroughGrowthAndWraparound) {
  StampInbox inbox;
  std::deque<std::uint64_t> expected;
  std::uint64_t next = 0;
  for (int round = 0; round < 2000; ++round) {
    for (int i = 0; i < 3; ++i) {
      inbox.add(stamp(0, 0, next));
      expected.push_back(next++);
    }
    const std::size_t index = static_cast<std::size_t>(round) % (expected.size() / 2 + 1);
    EXPECT_EQ(inbox.take(index).stamp.send_vt_ns, expected[index]);
    expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(index));
    EXPECT_EQ(inbox.take(expected.size() - 1).stamp.send_vt_ns, expected.back());
    expected.pop_back();
    if (round % 7 == 0) {
      const PendingStamp first = inbox.take(0);
      inbox.put_back(first);
    }
  }
  ASSERT_EQ(inbox.size(), expected.size());
  EXPECT_EQ(send_times(inbox), std::vector<std::uint64_t>(expected.begin(), expected.end()));
}

} // namespace
