// The communication section: every statement over all its contexts, and the rank x rank
// matrix.
#pragma once

#include "vcmon/report/CommMatrix.hpp"
#include "vcmon/report/CommStatement.hpp"
#include "vcmon/tables/JobSummary.hpp"

#include <span>
#include <string_view>
#include <vector>

namespace vcmon::report {

// Costliest first; `ranks` are the summary's, `program_total_ns` is the base of each
// statement's percentage.
std::vector<CommStatement> summarize_statements(const tables::ProgramGraph& graph,
                                                const tables::JobSummary& summary,
                                                std::span<const std::int32_t> ranks,
                                                double program_total_ns);

// The label of a record without a rank for a partner (tables::ComRecord::kCollective): a
// collective's, or, for a call that holds its own time only (MPI_Start, MPI_Request_free,
// a completion call that completed none of the layer's requests), no partner at all.
const char* rankless_partner_label(std::string_view statement_name);

// `world_ranks`: the run's size, or more if records name more.
CommMatrix build_matrix(const tables::JobSummary& summary, std::int32_t world_ranks);

} // namespace vcmon::report
