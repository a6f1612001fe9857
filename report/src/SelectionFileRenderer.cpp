#include "vcmon/report/SelectionFileRenderer.hpp"

#include "Units.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace vcmon::report {
namespace {

// Comments are whole lines in a selection file: a line break in a name must not end one.
std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') {
      c = ' ';
    }
  }
  return text;
}

// Below a microsecond the digits matter: a probe costs tens of nanoseconds.
std::string per_call(double ns) {
  return ns < 1000 ? fmt::format("{:.3g} ns", ns) : format_duration(ns);
}

std::string facts(const SuggestedProcedure& p) {
  return one_line(fmt::format("{}  {:.0f} calls per rank, {} per call, {}:{}", p.name,
                              p.calls_per_rank, per_call(p.ns_per_call), p.pos.file, p.pos.line));
}

} // namespace

void SelectionFileRenderer::render(const SelectionSuggestion& s, const std::string& source,
                                   std::ostream& out) const {
  fmt::print(out, "# vcmon selection file suggested by vcmon-report --suggest-selection\n");
  fmt::print(out, "# from {} ({} rank{})\n", one_line(source), s.ranks, s.ranks == 1 ? "" : "s");
  fmt::print(out,
             "# Rule: procedures called at least {:.0f} times per rank whose mean virtual time "
             "per call\n# (inclusive) is at most {}: their probes cost more than they tell.\n",
             s.rule.min_calls_per_rank, per_call(s.rule.max_ns_per_call));
  fmt::print(out, "# Use: vcmon-instrument --selection=FILE (docs/instrument.md, \"Selection "
                  "file\").\n");
  if (!s.kept.empty()) {
    fmt::print(out, "#\n# Meeting the rule but kept instrumented:\n");
    for (const auto& k : s.kept) {
      fmt::print(out, "#   {}: {}\n", facts(k.procedure), one_line(k.reason));
    }
  }
  fmt::print(out, "\nBEGIN_EXCLUDE_LIST\n");
  if (s.exclude.empty()) {
    fmt::print(out, "# (no procedure meets the rule)\n");
  }
  for (const auto& p : s.exclude) {
    fmt::print(out, "# {}\n{}\n", facts(p), p.name);
  }
  fmt::print(out, "END_EXCLUDE_LIST\n");
}

} // namespace vcmon::report
