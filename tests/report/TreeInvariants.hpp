// The accounting invariants of a report tree (docs/report.md, the tree's invariant): at every node,
// what the children add (their counted_ns) never exceeds the node's inclusive time, so its self
// time is never negative — in the sums over the ranks, in the means the report shows, and on each
// rank.
#pragma once

#include "vcmon/report/ReportTree.hpp"
#include "vcmon/tables/Profile.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace vcmon::report::testing {

// Relative slack for floating-point rounding only: apportioned shares multiply and sums add
// in different orders. A real violation is larger by many orders of magnitude.
inline constexpr double kRoundingTolerance = 1e-9;

// One line per broken invariant, naming the node and its numbers; empty when the tree keeps
// them all. `tree` must be unfiltered (filters hide children whose time stays in the node's
// self); `ranks`: the ranks its means are over.
std::vector<std::string> tree_invariant_violations(const ReportTree& tree, std::size_t ranks);

// The tree of all the profile's ranks (sums and means), then the tree of each rank alone (with
// one rank reported a node's total is that rank's own value); lines are prefixed by the tree.
std::vector<std::string> profile_invariant_violations(const tables::Profile& profile);

} // namespace vcmon::report::testing
