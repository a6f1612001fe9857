#include "vcmon/report/RankStats.hpp"

#include <gtest/gtest.h>
#include <vector>

namespace vcmon::report {
namespace {

TEST(RankStats, SummarisesAcrossRanks) {
  const std::vector<double> values{4, 12, 8};
  const std::vector<std::int32_t> ranks{0, 1, 2};
  const auto stats = RankStats::of(values, ranks);
  EXPECT_DOUBLE_EQ(stats.total, 24);
  EXPECT_DOUBLE_EQ(stats.min, 4);
  EXPECT_DOUBLE_EQ(stats.mean, 8);
  EXPECT_DOUBLE_EQ(stats.max, 12);
  EXPECT_EQ(stats.max_rank, 1);
  EXPECT_DOUBLE_EQ(stats.imbalance(), 1.5);
}

TEST(RankStats, NothingMeasuredIsBalancedAtZero) {
  const auto stats = RankStats::of({}, {});
  EXPECT_EQ(stats.max_rank, -1);
  EXPECT_DOUBLE_EQ(stats.imbalance(), 0);
}

} // namespace
} // namespace vcmon::report
