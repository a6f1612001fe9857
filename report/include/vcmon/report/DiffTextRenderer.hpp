// A comparison of two runs (ReportDiff) as aligned plain text (docs/report.md, "Comparing two
// runs").
#pragma once

#include "vcmon/report/ReportDiff.hpp"

#include <ostream>

namespace vcmon::report {

class DiffTextRenderer {
public:
  void render(const ReportDiff& diff, std::ostream& out) const;
};

} // namespace vcmon::report
