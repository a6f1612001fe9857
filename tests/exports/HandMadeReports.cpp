#include "HandMadeReports.hpp"

#include <vector>

namespace vcmon::report::testing {

HandMadeReport::HandMadeReport(std::int32_t ranks, std::string command) {
  report_.header.ranks = ranks;
  report_.header.ranks_reported = ranks;
  report_.header.command = std::move(command);
}

std::uint32_t HandMadeReport::add(std::uint32_t parent, NodeKind kind, std::string name,
                                  double total_ns, std::uint32_t line) {
  ReportNode node;
  node.id = static_cast<std::uint32_t>(report_.tree.size());
  node.kind = kind;
  node.name = std::move(name);
  if (kind != NodeKind::Program) {
    node.pos = {"src/app.c", line, 1};
  }
  const double ranks = report_.header.ranks_reported;
  node.time.total = total_ns;
  node.time.mean = total_ns / ranks;
  node.time.min = node.time.max = node.time.mean;
  node.time.max_rank = 0;
  node.time.imbalance_ranks = report_.header.ranks_reported;
  node.count = report_.header.ranks_reported;
  if (kind == NodeKind::Comm || kind == NodeKind::Partner) {
    node.comm = CommBreakdown{total_ns / 2, total_ns / 2, 0};
  }
  return report_.tree.add(std::move(node), parent);
}

Report HandMadeReport::finish() {
  auto& tree = report_.tree;
  const double ranks = report_.header.ranks_reported;
  for (std::size_t i = tree.size(); i-- > 0;) {
    ReportNode& node = tree.mutable_node(static_cast<std::uint32_t>(i));
    double children = 0;
    for (const auto child : node.children) {
      children += tree.node(child).counted_ns;
    }
    node.counted_ns = node.outside_main ? 0 : node.recursive ? children : node.time.total;
    node.self_ns = node.recursive ? 0 : node.time.total - children;
    node.self_mean_ns = node.self_ns / ranks;
  }
  report_.header.program_ns = tree.empty() ? 0 : tree.root().time.total;
  return std::move(report_);
}

Report threads_report() {
  HandMadeReport r(2, "./threads");
  const auto program = r.add(0, NodeKind::Program, "program", 2e6);
  const auto main = r.add(program, NodeKind::Procedure, "main", 2e6, 1);
  r.add(main, NodeKind::Loop, "loop", 1.5e6, 3);
  const auto worker = r.add(program, NodeKind::Procedure, "worker", 6e6, 10);
  r.node(worker).outside_main = true;
  const auto barrier = r.add(worker, NodeKind::Comm, "MPI_Barrier", 1e6, 12);
  r.add(barrier, NodeKind::Partner, "collective", 1e6, 12);
  return r.finish();
}

Report broken_report() {
  HandMadeReport r(2, "./broken");
  const auto program = r.add(0, NodeKind::Program, "program", 2e6);
  const auto main = r.add(program, NodeKind::Procedure, "main", 2e6, 1);
  r.add(main, NodeKind::Procedure, "p", 3e6, 2);
  return r.finish();
}

Report recursion_report() {
  HandMadeReport r(1, "./fact");
  const auto program = r.add(0, NodeKind::Program, "program", 1e6);
  const auto main = r.add(program, NodeKind::Procedure, "main", 1e6, 1);
  const auto fact = r.add(main, NodeKind::Procedure, "fact", 0.9e6, 3);
  const auto again = r.add(fact, NodeKind::Procedure, "fact", 0.7e6, 3);
  r.node(again).recursive = true;
  const auto send = r.add(again, NodeKind::Comm, "MPI_Send", 0.1e6, 5);
  r.node(send).comm->bytes = 64;
  const auto partner = r.add(send, NodeKind::Partner, "rank 1", 0.1e6, 5);
  r.node(partner).comm->bytes = 64;
  r.node(partner).partner = 1;
  const auto leaf = r.add(fact, NodeKind::Procedure, "fact", 0.05e6, 3);
  r.node(leaf).recursive = true;
  const auto counted = r.add(main, NodeKind::Loop, "loop", 0, 8);
  r.node(counted).counted_only = true;
  r.node(counted).count = 40;
  return r.finish();
}

Report awkward_names_report() {
  HandMadeReport r(1, "./awkward");
  const auto program = r.add(0, NodeKind::Program, "program", 4e6);
  const auto main = r.add(program, NodeKind::Procedure, "main", 4e6, 1);
  const auto a = r.add(main, NodeKind::Procedure, "a;b", 3e6, 2);
  const auto b = r.add(a, NodeKind::Procedure, "two words", 2e6, 3);
  const auto c = r.add(b, NodeKind::Procedure, "tab\there", 1e6, 4);
  const auto send = r.add(c, NodeKind::Comm, "MPI_Send", 0.5e6, 5);
  r.add(send, NodeKind::Partner, "rank 3", 0.5e6, 5);
  return r.finish();
}

} // namespace vcmon::report::testing
