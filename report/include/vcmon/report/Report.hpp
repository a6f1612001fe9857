// Everything vcmon-report shows, computed from a profile (or a live snapshot of one).
#pragma once

#include "vcmon/report/CommMatrix.hpp"
#include "vcmon/report/CommStatement.hpp"
#include "vcmon/report/FoldedProcedure.hpp"
#include "vcmon/report/HotPath.hpp"
#include "vcmon/report/MpiFunction.hpp"
#include "vcmon/report/ReportHeader.hpp"
#include "vcmon/report/ReportOptions.hpp"
#include "vcmon/report/ReportTree.hpp"
#include "vcmon/report/TimeSplit.hpp"
#include "vcmon/tables/Profile.hpp"

#include <vector>

namespace vcmon::report {

struct Report {
  ReportHeader header;
  TimeSplit time_split;
  std::vector<MpiFunction> mpi_functions;   // costliest first
  ReportTree tree;                          // after the filters
  HotPath hot_path;                         // walked on the unfiltered tree
  std::vector<CommStatement> statements;    // costliest first
  std::vector<CommStatement> message_sizes; // those that moved bytes, most bytes first
  CommMatrix matrix;
  std::vector<FoldedProcedure> folded; // tiny leaves not probed: their time is their callers'
  ReportOptions options;
};

// Throws ReportError when the records contradict the static tables or an option names a rank
// or site the profile does not have.
Report build_report(const tables::Profile& profile, const ReportOptions& options = {});

} // namespace vcmon::report
