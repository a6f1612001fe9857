// The six tables of Li & Zhang's program graph (docs/design.md, "Sites and the program graph"),
// derived from the site tree.
#pragma once

#include "vcmon/tables/Site.hpp"

#include <vector>

namespace vcmon::tables {

struct PLRow {
  SiteId proc, loop;
  auto operator<=>(const PLRow&) const = default;
};
struct PComRow {
  SiteId proc, comm;
  auto operator<=>(const PComRow&) const = default;
};
// callee is kNoSite when the call is indirect or its target is outside the program.
struct PCRow {
  SiteId proc, call, callee;
  auto operator<=>(const PCRow&) const = default;
};
struct LLRow {
  SiteId loop, inner;
  auto operator<=>(const LLRow&) const = default;
};
struct LComRow {
  SiteId loop, comm;
  auto operator<=>(const LComRow&) const = default;
};
struct LCRow {
  SiteId loop, call, callee;
  auto operator<=>(const LCRow&) const = default;
};

// Each vector is sorted by its row's natural order.
struct StaticTables {
  std::vector<PLRow> pl;
  std::vector<PComRow> pcom;
  std::vector<PCRow> pc;
  std::vector<LLRow> ll;
  std::vector<LComRow> lcom;
  std::vector<LCRow> lc;
  bool operator==(const StaticTables&) const = default;
};

} // namespace vcmon::tables
