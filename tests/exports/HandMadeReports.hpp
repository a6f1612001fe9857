// Reports built by hand, node by node, for the cases the profile builders do not reach on
// purpose: a thread's root beside main, a tree that breaks its invariant, recursion, a counted
// loop and names holding the folded format's separators.
#pragma once

#include "vcmon/report/Report.hpp"

#include <cstdint>
#include <string>

namespace vcmon::report::testing {

class HandMadeReport {
public:
  explicit HandMadeReport(std::int32_t ranks, std::string command = "hand-made");

  // Adds a node under `parent` (the first one is the program) with its inclusive time summed
  // over the ranks, and returns its index.
  std::uint32_t add(std::uint32_t parent, NodeKind kind, std::string name, double total_ns,
                    std::uint32_t line = 0);
  ReportNode& node(std::uint32_t index) { return report_.tree.mutable_node(index); }

  // Fills counted_ns, self_ns and self_mean_ns as the tree builder does and returns the report.
  Report finish();

private:
  Report report_;
};

// 2 ranks. program 2 ms, main 2 ms with a loop of 1.5 ms; worker (outside main: a thread's
// body) 6 ms holding an MPI_Barrier of 1 ms with its `collective` partner.
Report threads_report();
// 2 ranks. main 2 ms whose child p takes 3 ms: main's self is -0.5 ms per rank.
Report broken_report();
// 1 rank. main 1 ms -> fact 0.9 ms -> fact (recursive, 0.7 ms) -> MPI_Send 0.1 ms, 64 bytes ->
// rank 1; fact also holds a recursive leaf (0.05 ms) and main a counted loop (40 runs, no time).
Report recursion_report();
// 1 rank. Procedures named "a;b", "two words" and "tab\there", and a partner "rank 3".
Report awkward_names_report();

} // namespace vcmon::report::testing
