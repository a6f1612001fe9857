// Problems found as lines, joined into one text, so that a test compares it with "" and prints
// every line when it is not empty.
#pragma once

#include <string>
#include <vector>

namespace vcmon::report::testing {

inline std::string joined_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) {
    text += line + "\n";
  }
  return text;
}

} // namespace vcmon::report::testing
