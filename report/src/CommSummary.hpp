// The communication section: every statement over all its contexts, and the rank x rank
// matrix.
#pragma once

#include "RecordIndex.hpp"

#include "vcmon/report/CommMatrix.hpp"
#include "vcmon/report/CommStatement.hpp"

#include <string_view>
#include <vector>

namespace vcmon::report {

// Costliest first; `program_total_ns` is the base of each statement's percentage.
std::vector<CommStatement> summarize_statements(const tables::ProgramGraph& graph,
                                                const RecordIndex& index, double program_total_ns);

// A completion call's records (MPI_Wait*, MPI_Test*) hold time per partner but no messages:
// the calls that posted the requests hold those (docs/runtime.md, "Accounting").
bool completes_requests(std::string_view statement_name);
// The label of a record without a rank for a partner (tables::ComRecord::kCollective): a
// collective's, or, for a call that holds its own time only (MPI_Start, MPI_Request_free,
// a completion call that completed none of the layer's requests), no partner at all.
const char* rankless_partner_label(std::string_view statement_name);

CommMatrix build_matrix(const tables::ProgramGraph& graph, const RecordIndex& index);

} // namespace vcmon::report
