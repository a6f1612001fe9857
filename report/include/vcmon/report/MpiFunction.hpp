// One MPI function over all its call sites and ranks: which kind of call costs the most.
#pragma once

#include <cstdint>
#include <string>

namespace vcmon::report {

struct MpiFunction {
  std::string name;
  std::uint32_t sites = 0; // communication statements calling it
  std::uint64_t count = 0; // messages, operations or (completion calls) requests completed, summed
  double time_ns = 0;      // transmission + sync delay, summed over its sites and the ranks
  double mpi_percent = 0;  // of the MPI time summed over the ranks
  double application_percent = 0; // of the application time summed over the ranks
};

} // namespace vcmon::report
