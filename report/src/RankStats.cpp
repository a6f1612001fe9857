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

} // namespace vcmon::report
