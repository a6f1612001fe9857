#include "TreeOutline.hpp"

namespace vcmon::report::testing {
namespace {

void lines(const ReportTree& tree, std::uint32_t index, int depth, bool with_partners,
           std::string& out) {
  const auto& node = tree.node(index);
  if (node.kind == NodeKind::Partner && !with_partners) {
    return;
  }
  out += std::string(static_cast<std::size_t>(depth), ' ') + node.name;
  if (node.kind != NodeKind::Program && node.kind != NodeKind::Partner) {
    out += "@" + std::to_string(node.pos.line);
  }
  if (node.call_pos) {
    out += "<" + std::to_string(node.call_pos->line);
  }
  if (node.recursive) {
    out += " (recursive)";
  }
  out += "\n";
  for (const auto child : node.children) {
    lines(tree, child, depth + 1, with_partners, out);
  }
}

} // namespace

std::string outline(const ReportTree& tree, bool with_partners) {
  std::string out;
  if (!tree.empty()) {
    lines(tree, 0, 0, with_partners, out);
  }
  return out;
}

std::vector<const ReportNode*> find_nodes(const ReportTree& tree,
                                          const std::function<bool(const ReportNode&)>& match) {
  std::vector<const ReportNode*> found;
  for (const auto& node : tree.nodes()) {
    if (match(node)) {
      found.push_back(&node);
    }
  }
  return found;
}

} // namespace vcmon::report::testing
