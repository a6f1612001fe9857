#include "TablesSource.hpp"

#include <cstdio>

namespace vcmon::preprocessor {
namespace {

const char* kind_enumerator(tables::SiteKind kind) {
  switch (kind) {
  case tables::SiteKind::Procedure:
    return "VCMON_SITE_PROCEDURE";
  case tables::SiteKind::Loop:
    return "VCMON_SITE_LOOP";
  case tables::SiteKind::Call:
    return "VCMON_SITE_CALL";
  case tables::SiteKind::Comm:
    return "VCMON_SITE_COMM";
  }
  return "VCMON_SITE_PROCEDURE";
}

const char* probing_enumerator(tables::SiteProbing probing) {
  switch (probing) {
  case tables::SiteProbing::Timed:
    return "VCMON_PROBING_TIMED";
  case tables::SiteProbing::Counted:
    return "VCMON_PROBING_COUNTED";
  case tables::SiteProbing::Folded:
    return "VCMON_PROBING_FOLDED";
  }
  return "VCMON_PROBING_TIMED";
}

} // namespace

std::string c_string_literal(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\%03o", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string tables_source(const tables::ProgramGraph& graph, std::string_view file,
                          const UnitNames& names) {
  const std::string& tag = names.tag;
  std::string out;
  out += kGeneratedMarker;
  out += "static tables of " + std::string(file) + "; generated, do not edit. */\n";
  out += "#include \"vcmon/probes.h\"\n\n";
  out += "#ifdef __cplusplus\nextern \"C\" {\n#endif\nunsigned " + names.base +
         " __attribute__((visibility(\"hidden\")));\n#ifdef __cplusplus\n}\n#endif\n\n";
  const std::string sites = "vcmon_sites_" + tag;
  if (graph.size() > 0) {
    out += "static const vcmon_site_desc " + sites + "[] = {\n";
    for (const tables::Site& s : graph.sites()) {
      const long parent = s.parent == tables::kNoSite ? -1L : static_cast<long>(s.parent);
      out += "    {" + std::string(kind_enumerator(s.kind)) + ", " + std::to_string(s.pos.line) +
             ", " + std::to_string(s.pos.column) + ", " + std::to_string(parent) + ", " +
             c_string_literal(s.name) + ", " + c_string_literal(s.symbol) + ", " +
             probing_enumerator(s.probing) + "},\n";
    }
    out += "};\n";
  }
  const std::string unit = "vcmon_unit_" + tag;
  out += "static const vcmon_unit_desc " + unit + " = {VCMON_PROBE_ABI_VERSION, " +
         c_string_literal(file) + ", " + std::to_string(graph.size()) + "u, " +
         (graph.size() > 0 ? sites : std::string("0")) + "};\n\n";
  // Priority 101 runs before C++ static initialisers of the program, which may already call
  // instrumented code.
  out += "__attribute__((constructor(101))) static void vcmon_register_" + tag +
         "(void) {\n  vcmon_register_unit(&" + unit + ", &" + names.base + ");\n}\n";
  return out;
}

} // namespace vcmon::preprocessor
