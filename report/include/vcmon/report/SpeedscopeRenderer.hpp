// The report tree in speedscope's file format: shared frames and one sampled profile whose
// samples are the tree's call paths weighted by their exclusive virtual time, mean over the
// reported ranks (docs/report.md, "Exports").
#pragma once

#include "vcmon/report/Report.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace vcmon::report {

inline constexpr const char* kSpeedscopeSchema =
    "https://www.speedscope.app/file-format-schema.json";

class SpeedscopeRenderer {
public:
  // Keys in the order the format documents them.
  nlohmann::ordered_json to_json(const Report& report) const;
  void render(const Report& report, std::ostream& out) const;
};

} // namespace vcmon::report
