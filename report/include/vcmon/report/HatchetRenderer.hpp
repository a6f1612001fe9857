// The report tree in Hatchet's literal format: a JSON list of roots, each node
// {"frame": {"name", "type", "file", "line"}, "metrics": {...}, "children": [...]}, which
// hatchet.GraphFrame.from_literal and Thicket read (docs/report.md, "Exports").
#pragma once

#include "vcmon/report/Report.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace vcmon::report {

class HatchetRenderer {
public:
  // Keys in the order the format documents them.
  nlohmann::ordered_json to_json(const Report& report) const;
  void render(const Report& report, std::ostream& out) const;
};

} // namespace vcmon::report
