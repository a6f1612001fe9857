// A comparison of two runs (ReportDiff) as JSON (docs/report.md, "Comparing two runs"): its own
// document, not the report's schema; "diff_version" names its layout.
#pragma once

#include "vcmon/report/ReportDiff.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace vcmon::report {

// Bumped whenever the diff JSON layout changes incompatibly.
inline constexpr int kDiffSchemaVersion = 1;

class DiffJsonRenderer {
public:
  nlohmann::ordered_json to_json(const ReportDiff& diff) const;
  void render(const ReportDiff& diff, std::ostream& out) const;
};

} // namespace vcmon::report
