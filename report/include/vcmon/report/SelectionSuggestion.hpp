// Which procedures to leave uninstrumented next time (vcmon-report --suggest-selection), as
// scorep-score -f suggests a filter: those called so often, for so little time per call, that
// their probes cost more than they tell (docs/report.md, "Suggesting a selection file").
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vcmon::report {

// A procedure is suggested when both hold, over the ranks used (means per rank):
struct SuggestionRule {
  double max_ns_per_call = 1000;   // mean virtual time per timed call, inclusive, at most this
  double min_calls_per_rank = 1e4; // calls per rank (all its call sites), at least this
};

struct SuggestedProcedure {
  std::string name; // the qualified name, the pattern vcmon-instrument matches
  tables::SourcePos pos;
  double calls_per_rank = 0;
  double ns_per_call = 0;
};

// A procedure that meets the rule but stays instrumented, and why.
struct KeptProcedure {
  SuggestedProcedure procedure;
  std::string reason;
};

struct SelectionSuggestion {
  SuggestionRule rule;
  std::int32_t ranks = 0;                  // ranks whose records were used
  std::vector<SuggestedProcedure> exclude; // by calls per rank, most first
  std::vector<KeptProcedure> kept;         // by calls per rank, most first
};

// Applies the rule to every timed procedure of the profile (only rank `rank`'s records when
// given; ReportError when the profile has no such rank). Kept despite the rule: main; procedures
// holding communication statements (those would lose their source lines); procedures calling a
// procedure that stays instrumented, or through a pointer (the callee would look entered from
// outside main); procedures
// whose name another, unsuggested procedure shares, or that holds pattern syntax (`*`, `?`, `#`,
// parentheses, quotes: a pattern cannot name it alone).
SelectionSuggestion suggest_selection(const tables::Profile& profile, const SuggestionRule& rule,
                                      std::optional<std::int32_t> rank = std::nullopt);

} // namespace vcmon::report
