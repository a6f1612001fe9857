// The generated source holding one translation unit's static tables: a vcmon_unit_desc and a
// constructor registering it with the runtime before main (runtime/include/vcmon/probes.h).
#pragma once

#include "UnitNames.hpp"

#include "vcmon/tables/ProgramGraph.hpp"

#include <string>
#include <string_view>

namespace vcmon::preprocessor {

// First line of every file vcmon-instrument writes; an input starting with it is refused.
inline constexpr std::string_view kGeneratedMarker = "/* vcmon-instrument: ";

// Valid C and C++. `file` is the source's path as given, stored as the unit's file.
std::string tables_source(const tables::ProgramGraph& graph, std::string_view file,
                          const UnitNames& names);

// `text` as the body of a C string literal.
std::string c_string_literal(std::string_view text);

} // namespace vcmon::preprocessor
