// Point-to-point traffic between ranks: row = the rank whose records hold it, column = its
// partner. Sparse: only pairs that communicated.
#pragma once

#include "vcmon/tables/JobSummary.hpp"

#include <cstdint>
#include <vector>

namespace vcmon::report {

using CommCell = tables::JobSummary::Cell;

struct CommMatrix {
  std::int32_t ranks = 0;      // the matrix is ranks x ranks
  std::vector<CommCell> cells; // sorted by (rank, partner)
};

} // namespace vcmon::report
