// The report as aligned plain text, read like mpiP's report or Cube's call tree.
#pragma once

#include "vcmon/report/Report.hpp"

#include <ostream>

namespace vcmon::report {

class TextRenderer {
public:
  void render(const Report& report, std::ostream& out) const;
};

} // namespace vcmon::report
