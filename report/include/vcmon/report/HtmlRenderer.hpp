// The report as one self-contained HTML page (inline CSS and JavaScript, no network): a
// collapsible tree, an icicle view of the hierarchy and the communication matrix as a heat map.
#pragma once

#include "vcmon/report/Report.hpp"

#include <ostream>

namespace vcmon::report {

class HtmlRenderer {
public:
  void render(const Report& report, std::ostream& out) const;
};

} // namespace vcmon::report
