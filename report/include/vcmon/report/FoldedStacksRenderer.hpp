// The report tree as folded stacks, the input of flamegraph.pl and inferno: one line per tree
// node with exclusive time, "program;main;p1;p3;loop_fig12.c:11 1234", the value being the
// node's exclusive virtual time in whole microseconds, mean over the reported ranks
// (docs/report.md, "Exports").
#pragma once

#include "vcmon/report/Report.hpp"

#include <ostream>
#include <string>
#include <string_view>

namespace vcmon::report {

class FoldedStacksRenderer {
public:
  void render(const Report& report, std::ostream& out) const;

  // A frame name as a folded line can hold it: ';' (the frame separator), spaces and control
  // characters become '_' ("loop_fig12.c:11", "rank_3"). A line break would end the line, and
  // flamegraph.pl and inferno read a line ending in two space-separated numbers as the two
  // counts of a differential flame graph, which "...;rank 3 52" would be.
  static std::string frame(std::string_view name);
};

} // namespace vcmon::report
