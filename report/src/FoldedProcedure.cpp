#include "vcmon/report/FoldedProcedure.hpp"

#include <unordered_map>

namespace vcmon::report {

std::vector<FoldedProcedure> folded_procedures(const tables::ProgramGraph& graph) {
  std::vector<FoldedProcedure> folded;
  std::unordered_map<tables::SiteId, std::size_t> by_site;
  for (const tables::Site& s : graph.sites()) {
    if (s.kind == tables::SiteKind::Procedure && s.probing == tables::SiteProbing::Folded) {
      by_site.emplace(s.id, folded.size());
      folded.push_back({s.id, s.name, s.pos, 0});
    }
  }
  for (const tables::Site& s : graph.sites()) {
    if (s.kind == tables::SiteKind::Call && s.probing == tables::SiteProbing::Folded) {
      if (const auto it = by_site.find(graph.callee_of(s.id)); it != by_site.end()) {
        ++folded[it->second].call_sites;
      }
    }
  }
  return folded;
}

} // namespace vcmon::report
