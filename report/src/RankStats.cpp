#include "vcmon/report/RankStats.hpp"

#include <algorithm>

namespace vcmon::report {

RankStats RankStats::of(std::span<const double> values, std::span<const std::int32_t> ranks) {
  RankStats stats;
  if (values.empty()) {
    return stats;
  }
  stats.min = values[0];
  stats.max = values[0];
  stats.max_rank = ranks[0];
  for (std::size_t i = 0; i < values.size(); ++i) {
    stats.total += values[i];
    stats.min = std::min(stats.min, values[i]);
    if (values[i] > stats.max) {
      stats.max = values[i];
      stats.max_rank = ranks[i];
    }
  }
  stats.mean = stats.total / static_cast<double>(values.size());
  stats.imbalance_ranks = static_cast<std::int32_t>(values.size());
  return stats;
}

RankStats RankStats::reduced(const tables::ContextMerge::Spread& spread,
                             std::span<const std::int32_t> ranks) {
  RankStats s;
  if (ranks.empty()) {
    return s;
  }
  s.total = spread.total;
  s.mean = spread.total / static_cast<double>(ranks.size());
  // Ranks without the quantity hold zero: the minimum is theirs when there are any.
  s.min = spread.holders == ranks.size() ? spread.min : std::min(0.0, spread.min);
  s.max = spread.max;
  // RankStats::of(values) keeps the first rank holding the maximum; all zero, the first rank.
  s.max_rank = spread.max > 0 ? spread.max_rank : ranks.front();
  s.imbalance_ranks = static_cast<std::int32_t>(ranks.size());
  return s;
}

} // namespace vcmon::report
