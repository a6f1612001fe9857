// The instrumented copy of a source file: a marker line, the probe header, the unit's base
// declaration, then the original text with probes inserted behind a #line marker, so compiler
// messages, __FILE__/__LINE__ and debuggers keep pointing at the original.
#pragma once

#include "SourceEdits.hpp"
#include "UnitNames.hpp"

#include <string>
#include <string_view>

namespace vcmon::preprocessor {

// `file` is the original's path as given. `embedded_tables`, when not empty, is appended so
// that one file holds both (what the compiler wrappers compile).
std::string instrumented_copy(std::string_view source, const SourceEdits& edits,
                              std::string_view file, const UnitNames& names,
                              std::string_view embedded_tables);

} // namespace vcmon::preprocessor
