// The display filters of vcmon-report applied to a full tree: --depth, --threshold, --site.
#pragma once

#include "vcmon/report/ReportOptions.hpp"
#include "vcmon/report/ReportTree.hpp"

namespace vcmon::report {

// A copy of `tree` holding the nodes the options let through; nodes keep their ids. Throws
// ReportError when --site names no node of the tree.
ReportTree filter_tree(const ReportTree& tree, const ReportOptions& options);

} // namespace vcmon::report
