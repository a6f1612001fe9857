// Sites: the interesting program structures (docs/design.md, "Sites and the program graph").
#pragma once

#include <compare>
#include <cstdint>
#include <limits>
#include <string>

namespace vcmon::tables {

// Dense index of a site within one ProgramGraph (0, 1, 2, ...). The runtime uses the same
// numbering for its record arrays, so a probe indexes, never hashes.
using SiteId = std::uint32_t;
inline constexpr SiteId kNoSite = std::numeric_limits<SiteId>::max();

enum class SiteKind : std::uint8_t { Procedure = 0, Loop = 1, Call = 2, Comm = 3 };

const char* to_string(SiteKind kind);

// How the instrumented program measures a site. Probes that stop the compiler from inlining,
// vectorising or keeping values in registers would change the program they measure, so sites
// where they would cost more than they tell are measured less (docs/instrument.md).
enum class SiteProbing : std::uint8_t {
  Timed = 0,   // entry and exit probes: counts and virtual time
  Counted = 1, // a loop nested in a loop, with no call inside: executions and iterations are
               // counted in registers; its time is its enclosing loop's
  Folded = 2,  // a tiny leaf procedure, or a call of one: not probed, its cost is its caller's
};

const char* to_string(SiteProbing probing);

// Whether a site of `kind` may be probed so: Counted only for loops, Folded only for
// procedures and calls.
bool probing_fits(SiteKind kind, SiteProbing probing);

// A position in a program of many files: never a bare line.
struct SourcePos {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  auto operator<=>(const SourcePos&) const = default;
};

struct Site {
  SiteId id = kNoSite;
  SiteKind kind = SiteKind::Procedure;
  SourcePos pos;
  // Procedure: its name as written (qualified for C++ members). Call: the callee as written.
  // Comm: the MPI function called, e.g. "MPI_Send".
  std::string name;
  // The procedure or loop this site sits in; kNoSite for procedures and for synthetic sites.
  SiteId parent = kNoSite;
  // Linkage key used to resolve calls across translation units. Procedure: its own key (the
  // mangled name; internal-linkage functions are qualified by file). Call: the callee's key
  // when known statically, empty for calls through pointers or virtual calls (the callee is
  // known at run time only).
  std::string symbol;
  SiteProbing probing = SiteProbing::Timed;
  bool operator==(const Site&) const = default;
};

} // namespace vcmon::tables
