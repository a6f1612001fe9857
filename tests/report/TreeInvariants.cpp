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

// `a` <= `b` but for rounding relative to the larger magnitude.
bool at_most(double a, double b) {
  return a <= b + kRoundingTolerance * std::max({1.0, std::abs(a), std::abs(b)});
}

bool equal(double a, double b) {
  return at_most(a, b) && at_most(b, a);
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
           << node.time.mean << " ns; children add " << children << " ns, mean " << children / n
           << " ns; self " << node.self_ns << " ns, mean " << node.self_mean_ns << " ns)";
      violations.push_back(line.str());
    };
    if (node.recursive) {
      // Its time is already in the enclosing activation: it adds only what its children add,
      // and that is checked where it is added.
      if (!equal(node.counted_ns, children) || node.self_ns != 0) {
        fail("a recursive node must add exactly its children and have no self time");
      }
      continue;
    }
    if (!equal(node.counted_ns, node.time.total)) {
      fail("counted time differs from the inclusive time");
    }
    if (!equal(node.self_ns, node.time.total - children)) {
      fail("self time is not the inclusive time minus what the children add");
    }
    if (!at_most(children, node.time.total) || !at_most(0, node.self_ns)) {
      fail("children exceed the inclusive time (sum over the ranks)");
    }
    if (!at_most(children / n, node.time.mean) || !at_most(0, node.self_mean_ns) ||
        !equal(node.self_mean_ns, node.self_ns / n)) {
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
