// The paper's top-down walk: from the program follow the costliest child until the node's own
// time outweighs every child; the last step is the statement that deserves attention.
#pragma once

#include "vcmon/report/ReportTree.hpp"

#include <vector>

namespace vcmon::report {

// Copies of the nodes on the walk (without children), root first.
using HotPath = std::vector<ReportNode>;

HotPath find_hot_path(const ReportTree& tree);

} // namespace vcmon::report
