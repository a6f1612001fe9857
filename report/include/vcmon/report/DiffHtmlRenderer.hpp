// A comparison of two runs (ReportDiff) as one self-contained HTML page in the style of the
// report's (inline CSS and JavaScript, no network): the runs, the tree nodes and statements by
// |delta| with diverging bars, sortable by inclusive or self delta and filtered by path.
#pragma once

#include "vcmon/report/ReportDiff.hpp"

#include <ostream>

namespace vcmon::report {

class DiffHtmlRenderer {
public:
  void render(const ReportDiff& diff, std::ostream& out) const;
};

} // namespace vcmon::report
