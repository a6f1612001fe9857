// The report as JSON following docs/report-schema.json.
#pragma once

#include "vcmon/report/Report.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace vcmon::report {

// Bumped whenever the JSON layout changes incompatibly.
inline constexpr int kReportSchemaVersion = 2;

class JsonRenderer {
public:
  nlohmann::json to_json(const Report& report) const;
  void render(const Report& report, std::ostream& out) const;
};

} // namespace vcmon::report
