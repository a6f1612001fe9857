// The program graph: every site of a program (or of one translation unit) and the relations
// the static tables and the call graph are derived from.
#pragma once

#include "vcmon/tables/Site.hpp"
#include "vcmon/tables/StaticTables.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vcmon::tables {

class ProgramGraph {
public:
  // Appends a site and returns its id (ids are dense, in insertion order). `parent` must be
  // kNoSite or an existing Procedure/Loop site; throws std::invalid_argument otherwise.
  // A procedure's parent must be kNoSite. Procedures sharing a symbol are allowed (an inline
  // function defined in every unit that includes it); calls resolve to the first of them.
  // `probing` must fit the kind: Counted only for loops, Folded for procedures and calls.
  SiteId add_site(SiteKind kind, SourcePos pos, std::string name, SiteId parent,
                  std::string symbol = {}, SiteProbing probing = SiteProbing::Timed);

  // Changes how a site is probed (a loop's is known once its body has been read); the same
  // rule as add_site.
  void set_probing(SiteId id, SiteProbing probing);

  const std::vector<Site>& sites() const { return sites_; }
  const Site& site(SiteId id) const; // throws std::out_of_range
  std::size_t size() const { return sites_.size(); }

  // The procedure whose symbol is `symbol`, if the program defines it.
  std::optional<SiteId> find_procedure(std::string_view symbol) const;
  // The program's main: the first procedure named "main" (its symbol is the compiler's USR,
  // which differs between C and C++ and carries the parameter types).
  std::optional<SiteId> find_main() const;
  // The procedure a call statement invokes; kNoSite when indirect or external.
  SiteId callee_of(SiteId call) const;
  // Sites whose parent is `id`, in id order.
  std::vector<SiteId> children(SiteId id) const;
  // The procedure a site sits in (itself for a procedure).
  SiteId enclosing_procedure(SiteId id) const;

  StaticTables tables() const;

  // One program graph out of several translation units. The sites of unit k keep their order
  // and are renumbered by the number of sites in units 0..k-1, so a unit's local index plus
  // its base is its id in the merged graph. Calls resolve by symbol across units.
  static ProgramGraph merge(std::span<const ProgramGraph> units);

  bool operator==(const ProgramGraph& other) const { return sites_ == other.sites_; }

private:
  // Hashes std::string and std::string_view alike, so find_procedure needs no copy.
  struct SymbolHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  std::vector<Site> sites_;
  // Symbol -> its first procedure; derived from sites_, so operator== ignores it.
  std::unordered_map<std::string, SiteId, SymbolHash, std::equal_to<>> procedures_by_symbol_;
};

} // namespace vcmon::tables
