// The identifiers one instrumented translation unit and its generated tables source share:
// unique per source file and macro definitions in a program, stable from run to run.
#pragma once

#include <string>
#include <string_view>

namespace vcmon::preprocessor {

struct UnitNames {
  // `absolute_path` and `macros` (the command line's -D and -U, in order) make the names unique
  // in a program: one source compiled twice with other macros (a float and a double variant)
  // is two units. `file` (the path as given) makes them readable.
  UnitNames(std::string_view file, std::string_view absolute_path, std::string_view macros = {});

  std::string tag;  // e.g. "fig12_c_3f2a9c1d0b7e6a55"
  std::string base; // the extern unsigned holding the unit's base site id
};

} // namespace vcmon::preprocessor
