// The communication section: every statement over all its contexts, and the rank x rank
// matrix.
#pragma once

#include "RecordIndex.hpp"

#include "vcmon/report/CommMatrix.hpp"
#include "vcmon/report/CommStatement.hpp"

#include <vector>

namespace vcmon::report {

// Costliest first; `program_total_ns` is the base of each statement's percentage.
std::vector<CommStatement> summarize_statements(const tables::ProgramGraph& graph,
                                                const RecordIndex& index, double program_total_ns);

CommMatrix build_matrix(const RecordIndex& index);

} // namespace vcmon::report
