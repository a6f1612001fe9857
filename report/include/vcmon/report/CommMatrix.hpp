// Point-to-point traffic between ranks: row = the rank whose records hold it, column = its
// partner. Sparse: only pairs that communicated.
#pragma once

#include <cstdint>
#include <vector>

namespace vcmon::report {

struct CommCell {
  std::int32_t rank = 0;
  std::int32_t partner = 0;
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;
  std::uint64_t transmission_ns = 0;
  std::uint64_t sync_delay_ns = 0;
  std::uint64_t time_ns() const { return transmission_ns + sync_delay_ns; }
};

struct CommMatrix {
  std::int32_t ranks = 0;      // the matrix is ranks x ranks
  std::vector<CommCell> cells; // sorted by (rank, partner)
};

} // namespace vcmon::report
