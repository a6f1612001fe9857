#include "vcmon/report/ExportTree.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <utility>

namespace vcmon::report {
namespace {

// Hatchet's own readers type their frames function, loop and statement (the HPCToolkit
// reader); a partner is the part of a statement spent with one rank, a type of its own so that
// summing statements never counts their time twice.
const char* frame_type(NodeKind kind) {
  switch (kind) {
  case NodeKind::Program:
  case NodeKind::Procedure:
    return "function";
  case NodeKind::Loop:
    return "loop";
  case NodeKind::Comm:
    return "statement";
  case NodeKind::Partner:
    return "partner";
  }
  return "function";
}

// Loops and statements carry their position (file name without directories), so that two
// loops of one procedure are told apart wherever only the name is shown.
std::string frame_name(const ReportNode& node) {
  std::string name = node.name;
  if (name.empty()) {
    name = node.kind == NodeKind::Program ? "program" : "(unnamed)";
  }
  if ((node.kind == NodeKind::Loop || node.kind == NodeKind::Comm) && !node.pos.file.empty()) {
    name += fmt::format(" {}:{}", std::filesystem::path(node.pos.file).filename().string(),
                        node.pos.line);
  }
  return name;
}

} // namespace

ExportTree::ExportTree(const Report& report, const ExportOptions& options)
    : ranks_(report.header.ranks_reported) {
  const ReportTree& tree = report.tree;
  if (tree.empty()) {
    return;
  }
  const double ranks = std::max(1, ranks_);
  const std::size_t n = tree.size();
  // The program does not add the roots other than main (docs/report.md, "The tree's
  // invariant"): they are exported as roots of their own.
  auto exported = [&](std::uint32_t parent, std::uint32_t child) {
    return parent != 0 || !tree.node(child).outside_main;
  };

  // Real (unrounded) means. A recursive node's own time is already its enclosing activation's:
  // it accounts for what its children add (counted_ns), so nothing is counted twice.
  std::vector<double> inclusive(n), exclusive(n), bytes(n), bytes_exclusive(n);
  for (std::size_t i = n; i-- > 0;) {
    const ReportNode& node = tree.node(static_cast<std::uint32_t>(i));
    const bool root = i == 0 || node.outside_main;
    inclusive[i] = (node.recursive && !root ? node.counted_ns : node.time.total) / ranks;
    double children = 0, children_bytes = 0;
    for (const auto child : node.children) { // children follow their parent in the tree
      if (exported(static_cast<std::uint32_t>(i), child)) {
        children += inclusive[child];
        children_bytes += bytes[child];
      }
    }
    bytes[i] = node.comm ? node.comm->bytes / ranks : children_bytes;
    exclusive[i] = inclusive[i] - children;
    // A statement's or a recursive node's exclusive time is 0 up to the subtraction's rounding:
    // make it 0, so that it never tips a rounding either way.
    if (std::abs(exclusive[i]) <= 1e-9 * std::abs(inclusive[i])) {
      exclusive[i] = 0;
    }
    if (options.clamp_negative) {
      exclusive[i] = std::max(0.0, exclusive[i]);
    }
    bytes_exclusive[i] = bytes[i] - children_bytes;
    if (bytes_exclusive[i] <= 1e-9 * bytes[i]) {
      bytes_exclusive[i] = 0;
    }
  }

  // Preorder, each root's subtree in turn.
  std::vector<std::pair<std::uint32_t, std::int32_t>> stack; // tree index, exported parent
  auto visit = [&](std::uint32_t root) {
    stack.emplace_back(root, -1);
    while (!stack.empty()) {
      const auto [i, parent] = stack.back();
      stack.pop_back();
      const ReportNode& node = tree.node(i);
      const auto index = static_cast<std::uint32_t>(nodes_.size());
      ExportNode e;
      e.source = i;
      e.kind = node.kind;
      e.name = frame_name(node);
      e.type = frame_type(node.kind);
      e.file = node.pos.file;
      e.line = node.pos.line;
      e.count = node.count / ranks;
      e.parent = parent;
      if (parent < 0) {
        roots_.push_back(index);
      } else {
        e.depth = nodes_[static_cast<std::size_t>(parent)].depth + 1;
        nodes_[static_cast<std::size_t>(parent)].children.push_back(index);
      }
      nodes_.push_back(std::move(e));
      for (auto child = node.children.rbegin(); child != node.children.rend(); ++child) {
        if (exported(i, *child)) {
          stack.emplace_back(*child, static_cast<std::int32_t>(index));
        }
      }
    }
  };
  visit(0);
  for (const auto child : tree.root().children) {
    if (tree.node(child).outside_main) {
      visit(child);
    }
  }

  // Cumulative rounding: a node's exclusive value is the rounded running sum after it minus the
  // rounded running sum before it. A subtree is contiguous in preorder, so its inclusive value
  // telescopes to the rounded sums around it: within one unit of the real mean, never negative
  // where the real value is not, and exactly exclusive + children as written.
  double time_sum = 0, bytes_sum = 0;
  std::int64_t time_before = 0, bytes_before = 0;
  for (auto& e : nodes_) {
    time_sum += exclusive[e.source] / options.unit_ns;
    bytes_sum += bytes_exclusive[e.source];
    const auto time_after = std::llround(time_sum);
    const auto bytes_after = std::llround(bytes_sum);
    e.exclusive = time_after - time_before;
    e.bytes_exclusive = bytes_after - bytes_before;
    e.inclusive = e.exclusive;
    e.bytes_inclusive = e.bytes_exclusive;
    time_before = time_after;
    bytes_before = bytes_after;
  }
  // Children follow their parent: walking backwards, a node is complete when it is reached.
  for (std::size_t i = nodes_.size(); i-- > 0;) {
    const auto& e = nodes_[i];
    if (e.parent >= 0) {
      auto& parent = nodes_[static_cast<std::size_t>(e.parent)];
      parent.inclusive += e.inclusive;
      parent.bytes_inclusive += e.bytes_inclusive;
    }
  }
}

} // namespace vcmon::report
