#include "vcmon/report/ReportTree.hpp"

namespace vcmon::report {

std::uint32_t ReportTree::add(ReportNode node, std::uint32_t parent) {
  const auto index = static_cast<std::uint32_t>(nodes_.size());
  node.children.clear();
  nodes_.push_back(std::move(node));
  if (index != 0) {
    nodes_.at(parent).children.push_back(index);
  }
  return index;
}

} // namespace vcmon::report
