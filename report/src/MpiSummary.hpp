// mpiP's summary views: the time split per rank, MPI functions by aggregate time and message
// sizes per call site.
#pragma once

#include "vcmon/report/CommStatement.hpp"
#include "vcmon/report/MpiFunction.hpp"
#include "vcmon/report/TimeSplit.hpp"
#include "vcmon/tables/JobSummary.hpp"

#include <span>
#include <vector>

namespace vcmon::report {

// MPI calls do not nest, so a rank's MPI time is the sum of its communication records.
TimeSplit split_time(const tables::JobSummary& summary);

// `statements` must be all of them (before --threshold); costliest first.
std::vector<MpiFunction> summarize_mpi_functions(std::span<const CommStatement> statements,
                                                 const TimeSplit& split);

// The statements that moved bytes, most bytes first; `statements` must be all of them.
std::vector<CommStatement> order_by_bytes(std::span<const CommStatement> statements);

} // namespace vcmon::report
