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

TEST(RankStats, UnlistedRanksCountAsZero) {
  const std::vector<double> values{6, 2};
  const std::vector<std::int32_t> ranks{5, 9};
  const auto stats = RankStats::of_sparse(values, ranks, 4);
  EXPECT_DOUBLE_EQ(stats.min, 0);
  EXPECT_DOUBLE_EQ(stats.mean, 2);
  EXPECT_EQ(stats.max_rank, 5);
  EXPECT_DOUBLE_EQ(stats.imbalance(), 3);
  const auto all_listed = RankStats::of_sparse(values, ranks, 2);
  EXPECT_DOUBLE_EQ(all_listed.min, 2);
}

TEST(RankStats, NothingMeasuredIsBalancedAtZero) {
  const auto stats = RankStats::of({}, {});
  EXPECT_EQ(stats.max_rank, -1);
  EXPECT_DOUBLE_EQ(stats.imbalance(), 0);
}

} // namespace
} // namespace vcmon::report
