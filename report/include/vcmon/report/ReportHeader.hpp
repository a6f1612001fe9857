// The banner: what ran, where, when, and what the monitor cost.
#pragma once

#include "vcmon/tables/Records.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vcmon::report {

struct ReportHeader {
  std::string command;
  std::int32_t ranks = 0;          // ranks of the run
  std::int32_t ranks_reported = 0; // ranks whose records the report uses
  std::vector<std::string> hosts;
  std::int64_t start_unix_ns = 0;
  std::int64_t end_unix_ns = 0;
  std::string clock_source;
  double program_ns = 0;           // the program's total virtual time summed over the ranks
  std::uint64_t virtual_ns = 0;    // longest rank's virtual time
  std::uint64_t real_ns = 0;       // longest rank's real time
  std::uint64_t intrusion_ns = 0;  // summed over the ranks
  std::uint64_t real_total_ns = 0; // summed over the ranks, the base of the intrusion share
  bool partial = false;
  std::string partial_reason;
  tables::MonitorCounters counters;   // summed over the ranks
  std::uint32_t activation_depth = 0; // beyond it activations were folded; 0: unknown
  bool tree_truncated = false;        // the tree hit its node limit
  // The tree is the calling contexts (profile format 6), exact; false: built from the per-site
  // records, a procedure activated from several call sites apportioned among them.
  bool contexts = false;
};

} // namespace vcmon::report
