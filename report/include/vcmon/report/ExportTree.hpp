// The report tree as the export formats (Hatchet, speedscope, folded stacks) write it: every
// number a mean over the reported ranks, in integer units, with inclusive = exclusive + the
// children's inclusive holding exactly at every node (docs/report.md, "Exports").
#pragma once

#include "vcmon/report/Report.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vcmon::report {

struct ExportNode {
  std::uint32_t source = 0; // index of the node in Report::tree
  NodeKind kind = NodeKind::Program;
  // "program", a procedure's name, "loop fig12.c:11", "MPI_Recv fig12.c:12", "rank 3".
  std::string name;
  const char* type = "function"; // Hatchet's frame type: function, loop, statement, partner
  std::string file;              // the node's source file ("" for the program)
  std::uint32_t line = 0;
  // Virtual time in ExportOptions::unit_ns units, mean over the ranks. `inclusive` is
  // `exclusive` plus the children's `inclusive`, exactly.
  std::int64_t inclusive = 0;
  std::int64_t exclusive = 0;
  // Bytes moved by the communication statements at and below the node, mean over the ranks,
  // with the same invariant; a statement's bytes are its partners' (exclusive 0) unless they
  // are hidden by a filter.
  std::int64_t bytes_inclusive = 0;
  std::int64_t bytes_exclusive = 0;
  double count = 0;         // activations, loop runs, messages or operations: mean over the ranks
  std::int32_t parent = -1; // index into ExportTree::nodes(); -1 for a root
  std::uint32_t depth = 0;  // 0 for a root
  std::vector<std::uint32_t> children; // indices into ExportTree::nodes()
};

struct ExportOptions {
  double unit_ns = 1; // 1000: microseconds
  // Write a negative exclusive time (a profile that breaks the tree's invariant) as 0, for the
  // formats whose weights cannot be negative; the ancestors' inclusive times grow to match.
  bool clamp_negative = false;
};

class ExportTree {
public:
  ExportTree() = default;
  ExportTree(const Report& report, const ExportOptions& options);

  // Preorder, one root's subtree after the other: the program first, then each procedure
  // entered from outside main (a thread's body, a callback), which the program does not add.
  std::span<const ExportNode> nodes() const { return nodes_; }
  std::span<const std::uint32_t> roots() const { return roots_; }
  std::int32_t ranks() const { return ranks_; }

private:
  std::vector<ExportNode> nodes_;
  std::vector<std::uint32_t> roots_;
  std::int32_t ranks_ = 0;
};

} // namespace vcmon::report
