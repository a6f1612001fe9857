#include "CommSummary.hpp"

#include <algorithm>

namespace vcmon::report {

std::vector<CommStatement> summarize_statements(const tables::ProgramGraph& graph,
                                                const tables::JobSummary& summary,
                                                std::span<const std::int32_t> ranks,
                                                double program_total_ns) {
  std::vector<CommStatement> statements;
  for (const auto& s : summary.statements) {
    CommStatement statement;
    statement.site = s.comm;
    statement.name = graph.site(s.comm).name;
    statement.pos = graph.site(s.comm).pos;
    statement.time = RankStats::reduced(s.time, ranks);
    statement.transmission_ns = s.transmission_ns;
    statement.sync_delay_ns = s.sync_delay_ns;
    statement.bytes = s.bytes;
    statement.count = s.count;
    statement.sizes = s.sizes;
    statement.partners = s.partner_count;
    statement.percent = program_total_ns > 0 ? 100.0 * statement.time.total / program_total_ns : 0;
    statements.push_back(std::move(statement));
  }
  std::stable_sort(statements.begin(), statements.end(),
                   [](const auto& a, const auto& b) { return a.time.total > b.time.total; });
  return statements;
}

const char* rankless_partner_label(std::string_view statement_name) {
  const bool own_time_only =
      tables::completes_requests(statement_name) || statement_name.starts_with("MPI_Start") ||
      statement_name.starts_with("MPI_Request_") || statement_name == "MPI_Cancel";
  return own_time_only ? "no partner" : "collective";
}

CommMatrix build_matrix(const tables::JobSummary& summary, std::int32_t world_ranks) {
  CommMatrix matrix;
  matrix.ranks = world_ranks;
  matrix.cells = summary.cells;
  return matrix;
}

} // namespace vcmon::report
