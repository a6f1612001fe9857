// Procedures folded into their callers: tiny leaves that vcmon-instrument did not probe
// (tables::SiteProbing::Folded, docs/instrument.md). They have no records; their time is part
// of their callers', and the report names them so that their absence from the tree is explained.
#pragma once

#include "vcmon/tables/ProgramGraph.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vcmon::report {

struct FoldedProcedure {
  tables::SiteId site = tables::kNoSite;
  std::string name;
  tables::SourcePos pos;
  std::uint32_t call_sites = 0; // folded call statements that call it
};

// In site order.
std::vector<FoldedProcedure> folded_procedures(const tables::ProgramGraph& graph);

} // namespace vcmon::report
