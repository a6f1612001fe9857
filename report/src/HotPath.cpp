#include "vcmon/report/HotPath.hpp"

namespace vcmon::report {

HotPath find_hot_path(const ReportTree& tree) {
  HotPath path;
  if (tree.empty()) {
    return path;
  }
  const ReportNode* node = &tree.root();
  for (;;) {
    ReportNode step = *node;
    step.children.clear();
    path.push_back(std::move(step));
    const ReportNode* best = nullptr;
    for (const auto child : node->children) {
      const ReportNode& candidate = tree.node(child);
      if (best == nullptr || candidate.counted_ns > best->counted_ns) {
        best = &candidate;
      }
    }
    // Stop where the node's own code costs more than any single child: that is the place.
    if (best == nullptr || best->counted_ns <= 0 || node->self_ns > best->counted_ns) {
      return path;
    }
    node = best;
  }
}

} // namespace vcmon::report
