#include "InstrumentedCopy.hpp"

#include "TablesSource.hpp"

namespace vcmon::preprocessor {

std::string instrumented_copy(std::string_view source, const SourceEdits& edits,
                              std::string_view file, const UnitNames& names,
                              std::string_view embedded_tables) {
  std::string out;
  out += kGeneratedMarker;
  out += "instrumented copy of " + std::string(file) + "; generated, do not edit. */\n";
  out += "#include \"vcmon/preprocessor/instrumented.h\"\n";
  out += "VCMON_UNIT_BASE_DECL(" + names.base + ");\n";
  out += "#line 1 " + c_string_literal(file) + "\n";
  out += edits.apply(source);
  if (!embedded_tables.empty()) {
    if (!out.ends_with('\n')) {
      out += '\n';
    }
    out += "#line 1 " + c_string_literal("vcmon tables of " + std::string(file)) + "\n";
    out += embedded_tables;
  }
  return out;
}

} // namespace vcmon::preprocessor
