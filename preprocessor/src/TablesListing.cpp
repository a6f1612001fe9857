#include "TablesListing.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace vcmon::preprocessor {
namespace {

struct Row {
  int table; // PC, PL, PCom, LL, LCom, LC: the order rows are listed in
  std::vector<std::optional<tables::SourcePos>> positions;
  auto operator<=>(const Row&) const = default;
};

constexpr const char* kTableNames[] = {"PC", "PL", "PCom", "LL", "LCom", "LC"};

} // namespace

std::string list_tables(const tables::ProgramGraph& graph) {
  const auto at = [&](tables::SiteId id) -> std::optional<tables::SourcePos> {
    if (id == tables::kNoSite) {
      return std::nullopt;
    }
    return graph.site(id).pos;
  };
  const tables::StaticTables t = graph.tables();
  std::vector<Row> rows;
  for (const auto& r : t.pc) {
    rows.push_back({0, {at(r.proc), at(r.call), at(r.callee)}});
  }
  for (const auto& r : t.pl) {
    rows.push_back({1, {at(r.proc), at(r.loop)}});
  }
  for (const auto& r : t.pcom) {
    rows.push_back({2, {at(r.proc), at(r.comm)}});
  }
  for (const auto& r : t.ll) {
    rows.push_back({3, {at(r.loop), at(r.inner)}});
  }
  for (const auto& r : t.lcom) {
    rows.push_back({4, {at(r.loop), at(r.comm)}});
  }
  for (const auto& r : t.lc) {
    rows.push_back({5, {at(r.loop), at(r.call), at(r.callee)}});
  }
  std::ranges::sort(rows);

  std::string out;
  for (const Row& row : rows) {
    out += kTableNames[row.table];
    for (const auto& pos : row.positions) {
      out += ' ';
      if (pos) {
        out += pos->file + ":" + std::to_string(pos->line) + ":" + std::to_string(pos->column);
      } else {
        out += '-';
      }
    }
    out += '\n';
  }
  return out;
}

} // namespace vcmon::preprocessor
