// The top-down tree: program -> procedures by activating call site -> their calls and loops ->
// communication statements -> partners. Nodes are stored flat; index 0 is the program.
#pragma once

#include "vcmon/report/ReportNode.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace vcmon::report {

class ReportTree {
public:
  const ReportNode& root() const { return nodes_.front(); }
  const ReportNode& node(std::uint32_t index) const { return nodes_.at(index); }
  std::span<const ReportNode> nodes() const { return nodes_; }
  std::size_t size() const { return nodes_.size(); }
  bool empty() const { return nodes_.empty(); }

  // Appends a node under `parent` (or as the root when the tree is empty) and returns its
  // index.
  std::uint32_t add(ReportNode node, std::uint32_t parent);
  ReportNode& mutable_node(std::uint32_t index) { return nodes_.at(index); }

private:
  std::vector<ReportNode> nodes_;
};

} // namespace vcmon::report
