// A report tree as indented text ("p4@15<14": procedure p4 at line 15 called at line 14), so
// tests compare a whole structure at once.
#pragma once

#include "vcmon/report/ReportTree.hpp"

#include <functional>
#include <string>
#include <vector>

namespace vcmon::report::testing {

std::string outline(const ReportTree& tree, bool with_partners = false);

// Nodes for which `match` holds, in preorder.
std::vector<const ReportNode*> find_nodes(const ReportTree& tree,
                                          const std::function<bool(const ReportNode&)>& match);

} // namespace vcmon::report::testing
