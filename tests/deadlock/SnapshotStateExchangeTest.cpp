#include "vcmon/deadlock/SnapshotStateExchange.hpp"

#include "StateBuilders.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace vcmon::deadlock {
namespace {

using testing::blocked_any;
using testing::running;

TEST(SnapshotStateExchange, AnswersInTheOrderAskedAndCountsEveryRankAsked) {
  SnapshotStateExchange exchange({running(0, 4), blocked_any(1, 9, {0}), running(2, 7)});
  const std::vector<Rank> ask{2, 1};
  const std::vector<ProcessState> replies = exchange.request_states(ask);
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0], running(2, 7));
  EXPECT_EQ(replies[1], blocked_any(1, 9, {0}));
  const std::vector<Rank> again{2};
  exchange.request_states(again);
  EXPECT_EQ(exchange.ranks_queried(), 3u);
}

TEST(SnapshotStateExchange, RejectsDuplicateAndUnknownRanks) {
  EXPECT_THROW(SnapshotStateExchange({running(0, 1), running(0, 2)}), std::invalid_argument);
  SnapshotStateExchange exchange({running(0, 1)});
  const std::vector<Rank> unknown{5};
  EXPECT_THROW(exchange.request_states(unknown), std::out_of_range);
}

} // namespace
} // namespace vcmon::deadlock
