#include "CommSummary.hpp"

#include <algorithm>

namespace vcmon::report {

std::vector<CommStatement> summarize_statements(const tables::ProgramGraph& graph,
                                                const RecordIndex& index, double program_total_ns) {
  std::vector<CommStatement> statements;
  std::vector<double> per_rank(index.ranks().size());
  for (const tables::SiteId site : index.comm_sites()) {
    const auto& column = *index.comm(site);
    CommStatement statement;
    statement.site = site;
    statement.name = graph.site(site).name;
    statement.pos = graph.site(site).pos;
    for (std::size_t r = 0; r < per_rank.size(); ++r) {
      per_rank[r] = column.transmission[r] + column.sync_delay[r];
    }
    statement.time = RankStats::of(per_rank, index.ranks());
    for (const auto& entry : column.entries) {
      const tables::ComRecord& record = *entry.record;
      statement.transmission_ns += record.transmission_ns;
      statement.sync_delay_ns += record.sync_delay_ns;
      statement.bytes += record.bytes;
      statement.count += record.count;
      if (const std::uint64_t messages = record.messages(); messages > 0) {
        statement.min_bytes = statement.messages > 0
                                  ? std::min(statement.min_bytes, record.min_bytes)
                                  : record.min_bytes;
        statement.max_bytes = std::max(statement.max_bytes, record.max_bytes);
        statement.messages += messages;
        for (std::size_t c = 0; c < tables::kSizeClasses; ++c) {
          statement.size_classes[c] += record.size_classes[c];
        }
      }
    }
    statement.partners = column.partners;
    statement.percent = program_total_ns > 0 ? 100.0 * statement.time.total / program_total_ns : 0;
    statements.push_back(std::move(statement));
  }
  std::stable_sort(statements.begin(), statements.end(),
                   [](const auto& a, const auto& b) { return a.time.total > b.time.total; });
  return statements;
}

bool completes_requests(std::string_view statement_name) {
  return statement_name.starts_with("MPI_Wait") || statement_name.starts_with("MPI_Test");
}

const char* rankless_partner_label(std::string_view statement_name) {
  const bool own_time_only = completes_requests(statement_name) ||
                             statement_name.starts_with("MPI_Start") ||
                             statement_name.starts_with("MPI_Request_") ||
                             statement_name == "MPI_Cancel";
  return own_time_only ? "no partner" : "collective";
}

CommMatrix build_matrix(const tables::ProgramGraph& graph, const RecordIndex& index) {
  CommMatrix matrix;
  matrix.ranks = index.world_size();
  // One row per rank: its point-to-point records sorted by partner, then merged.
  std::vector<CommCell> row;
  for (const auto* records : index.rank_records()) {
    row.clear();
    for (const auto& com : records->coms) {
      if (com.partner != tables::ComRecord::kCollective) {
        const std::uint64_t messages =
            completes_requests(graph.site(com.comm).name) ? 0 : com.count;
        row.push_back({records->rank, com.partner, messages, com.bytes, com.transmission_ns,
                       com.sync_delay_ns});
      }
    }
    std::sort(row.begin(), row.end(),
              [](const auto& a, const auto& b) { return a.partner < b.partner; });
    for (const auto& cell : row) {
      if (matrix.cells.empty() || matrix.cells.back().rank != cell.rank ||
          matrix.cells.back().partner != cell.partner) {
        matrix.cells.push_back(cell);
        continue;
      }
      auto& merged = matrix.cells.back();
      merged.messages += cell.messages;
      merged.bytes += cell.bytes;
      merged.transmission_ns += cell.transmission_ns;
      merged.sync_delay_ns += cell.sync_delay_ns;
    }
  }
  return matrix;
}

} // namespace vcmon::report
