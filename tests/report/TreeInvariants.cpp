#include "TreeInvariants.hpp"

#include "vcmon/report/Report.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace vcmon::report::testing {
namespace {

std::string describe(const ReportNode& node) {
  std::ostringstream text;
  text << to_string(node.kind) << " " << node.name;
  if (!node.pos.file.empty()) {
    text << " " << node.pos.file << ":" << node.pos.line;
  }
  if (node.call_pos) {
    text << " called at line " << node.call_pos->line;
  }
  text << " (node " << node.id << ")";
  return text.str();
}

} // namespace

std::vector<std::string> tree_invariant_violations(const ReportTree& tree, std::size_t ranks) {
  std::vector<std::string> violations;
  const double n = static_cast<double>(ranks);
  for (const auto& node : tree.nodes()) {
    double children = 0;
    for (const auto child : node.children) {
      children += tree.node(child).counted_ns;
    }
    auto fail = [&](const std::string& what) {
      std::ostringstream line;
      line << describe(node) << ": " << what << " (inclusive " << node.time.total << " ns, mean "
           << node.time.mean << " ns; children add " << children << " ns; self " << node.self_ns
           << " ns, mean " << node.self_mean_ns << " ns)";
      violations.push_back(line.str());
    };
    // Rounding is relative to the largest quantity the node's numbers are formed from.
    const double slack =
        kRoundingTolerance * std::max({1.0, std::abs(node.time.total), std::abs(children)});
    auto differ = [&](double a, double b, double within) { return std::abs(a - b) > within; };
    if (node.recursive) {
      // Its time is already in the enclosing activation: it adds only what its children add,
      // and that is checked where it is added.
      if (differ(node.counted_ns, children, slack) || node.self_ns != 0) {
        fail("a recursive node must add exactly its children and have no self time");
      }
      continue;
    }
    // A node outside main (a thread's body, a callback) adds nothing to the program.
    if (differ(node.counted_ns, node.outside_main ? 0.0 : node.time.total, slack)) {
      fail(node.outside_main ? "a node outside main must add nothing to the program"
                             : "counted time differs from the inclusive time");
    }
    if (differ(node.self_ns, node.time.total - children, slack)) {
      fail("self time is not the inclusive time minus what the children add");
    }
    if (children > node.time.total + slack || node.self_ns < -slack) {
      fail("children exceed the inclusive time (sum over the ranks)");
    }
    if (n > 0 && differ(node.self_mean_ns, node.self_ns / n, slack / n)) {
      fail("self mean is not the self time over the ranks");
    }
    if (n > 0 && (children / n > node.time.mean + slack / n || node.self_mean_ns < -slack / n)) {
      fail("children exceed the inclusive time (means over the ranks)");
    }
  }
  return violations;
}

std::vector<std::string> profile_invariant_violations(const tables::Profile& profile) {
  std::vector<std::string> violations;
  auto check = [&](const ReportOptions& options, const std::string& which) {
    const Report report = build_report(profile, options);
    const auto ranks = static_cast<std::size_t>(report.header.ranks_reported);
    for (const auto& line : tree_invariant_violations(report.tree, ranks)) {
      violations.push_back(which + ": " + line);
    }
  };
  check({}, "all ranks");
  for (const auto& records : profile.ranks) {
    ReportOptions one;
    one.rank = records.rank;
    check(one, "rank " + std::to_string(records.rank));
  }
  return violations;
}

} // namespace vcmon::report::testing
