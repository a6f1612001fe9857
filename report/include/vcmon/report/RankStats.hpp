// One quantity across the ranks of a report: its total and how evenly it is spread.
#pragma once

#include "vcmon/tables/ContextMerge.hpp"

#include <cstdint>
#include <span>

namespace vcmon::report {

struct RankStats {
  double total = 0; // sum over the ranks
  double min = 0;
  double mean = 0;
  double max = 0;
  std::int32_t max_rank = -1; // the rank holding the maximum; -1 when there are no ranks
  // The ranks imbalance() compares: every reported rank, or only those whose records hold the
  // quantity when no other rank could (a point-to-point partner is one rank's record).
  std::int32_t imbalance_ranks = 0;

  // max over the mean of imbalance_ranks: 1 is perfectly balanced; 0 when nothing was measured.
  double imbalance() const {
    return total > 0 && imbalance_ranks > 0 ? max * imbalance_ranks / total : 0;
  }

  // `values[i]` belongs to `ranks[i]`; both spans have the same length.
  static RankStats of(std::span<const double> values, std::span<const std::int32_t> ranks);
  // The same of a quantity reduced over `ranks` (the ranks it was added for), ranks without it
  // counting as zero.
  static RankStats reduced(const tables::ContextMerge::Spread& spread,
                           std::span<const std::int32_t> ranks);
};

} // namespace vcmon::report
