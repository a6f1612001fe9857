#include "CommSummary.hpp"

#include <algorithm>
#include <unordered_map>

namespace vcmon::report {

std::vector<CommStatement> summarize_statements(const tables::ProgramGraph& graph,
                                                const RecordIndex& index, double program_total_ns) {
  std::vector<CommStatement> statements;
  std::vector<double> per_rank(index.ranks().size());
  for (const auto& [site, column] : index.comms()) {
    CommStatement statement;
    statement.site = site;
    statement.name = graph.site(site).name;
    statement.pos = graph.site(site).pos;
    for (std::size_t r = 0; r < per_rank.size(); ++r) {
      per_rank[r] = column.transmission[r] + column.sync_delay[r];
    }
    statement.time = RankStats::of(per_rank, index.ranks());
    for (const auto& [partner, entries] : column.partners) {
      for (const auto& entry : entries) {
        statement.transmission_ns += entry.record.transmission_ns;
        statement.sync_delay_ns += entry.record.sync_delay_ns;
        statement.bytes += entry.record.bytes;
        statement.count += entry.record.count;
      }
    }
    statement.partners = static_cast<std::uint32_t>(column.partners.size());
    statement.percent = program_total_ns > 0 ? 100.0 * statement.time.total / program_total_ns : 0;
    statements.push_back(std::move(statement));
  }
  std::sort(statements.begin(), statements.end(), [](const auto& a, const auto& b) {
    return a.time.total != b.time.total ? a.time.total > b.time.total : a.site < b.site;
  });
  return statements;
}

CommMatrix build_matrix(const RecordIndex& index) {
  CommMatrix matrix;
  matrix.ranks = index.world_size();
  std::unordered_map<std::uint64_t, CommCell> cells;
  for (const auto& [site, column] : index.comms()) {
    for (const auto& [partner, entries] : column.partners) {
      if (partner == tables::ComRecord::kCollective) {
        continue;
      }
      for (const auto& entry : entries) {
        const std::int32_t rank = index.ranks()[entry.rank_index];
        const auto key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(rank)) << 32) |
                         static_cast<std::uint32_t>(partner);
        auto& cell = cells[key];
        cell.rank = rank;
        cell.partner = partner;
        cell.messages += entry.record.count;
        cell.bytes += entry.record.bytes;
        cell.transmission_ns += entry.record.transmission_ns;
        cell.sync_delay_ns += entry.record.sync_delay_ns;
      }
    }
  }
  matrix.cells.reserve(cells.size());
  for (const auto& [key, cell] : cells) {
    matrix.cells.push_back(cell);
  }
  std::sort(matrix.cells.begin(), matrix.cells.end(), [](const auto& a, const auto& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.partner < b.partner;
  });
  return matrix;
}

} // namespace vcmon::report
