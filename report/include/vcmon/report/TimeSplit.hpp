// The view mpiP users read first: per rank, the program's time and how much of it MPI took.
#pragma once

#include "vcmon/report/RankStats.hpp"

#include <cstdint>
#include <vector>

namespace vcmon::report {

struct RankTime {
  std::int32_t rank = 0;
  double application_ns = 0; // the program's total on this rank (main's proc record, else its
                             // virtual time), as the tree's program node counts it
  double mpi_ns = 0;         // every communication record of the rank: transmission + sync delay
  double mpi_percent() const { return application_ns > 0 ? 100.0 * mpi_ns / application_ns : 0; }
};

struct TimeSplit {
  std::vector<RankTime> ranks; // the reported ranks, in rank order
  // Over the reported ranks; mpi_percent's total is meaningless and not shown.
  RankStats application;
  RankStats mpi;
  RankStats mpi_percent;
};

} // namespace vcmon::report
