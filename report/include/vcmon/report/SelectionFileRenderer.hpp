// A selection suggestion as the selection file vcmon-instrument --selection=FILE reads
// (docs/instrument.md, "Selection file"): one EXCLUDE_LIST, the rule and every decision in
// comment lines.
#pragma once

#include "vcmon/report/SelectionSuggestion.hpp"

#include <ostream>
#include <string>

namespace vcmon::report {

class SelectionFileRenderer {
public:
  // `source` names the profile(s) the suggestion comes from, for the file's first comment.
  void render(const SelectionSuggestion& suggestion, const std::string& source,
              std::ostream& out) const;
};

} // namespace vcmon::report
