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
#include "vcmon/tables/ProfileReader.hpp"

#include <vector>

namespace vcmon::report {

struct Report {
  ReportHeader header;
  TimeSplit time_split;
  std::vector<MpiFunction> mpi_functions; // costliest first
  // The calling contexts merged by path when the profile has them (header.contexts), else the
  // per-site records apportioned among call sites; after the filters.
  ReportTree tree;
  HotPath hot_path; // walked on the unfiltered tree
  // The per-site view: each proc record's (procedure, call site), loop and statement summed
  // over every context, costliest first, without children (--threshold applies).
  std::vector<ReportNode> sites;
  std::vector<CommStatement> statements;    // costliest first
  std::vector<CommStatement> message_sizes; // those that moved bytes, most bytes first
  CommMatrix matrix;
  std::vector<FoldedProcedure> folded; // tiny leaves not probed: their time is their callers'
  ReportOptions options;
};

// Throws ReportError when the records contradict the static tables or an option names a rank
// or site the profile does not have.
Report build_report(const tables::Profile& profile, const ReportOptions& options = {});
// The same from a file: the whole job from its summary section when it has one (and
// options.use_summary), reading no rank; otherwise reading the profile a rank at a time, each
// rank reduced into the job's summary and dropped as it is read. Also throws
// tables::ProfileError for a summary or a rank whose records cannot be read.
Report build_report(const tables::ProfileReader& reader, const ReportOptions& options = {});

} // namespace vcmon::report
