// TreeBuilder's context mode: the tree is the ranks' calling contexts merged by path
// (docs/report.md, "The tree"), each node exactly its path's records.
#include "TreeBuilder.hpp"

#include <algorithm>

namespace vcmon::report {

using tables::SiteId;
using tables::SiteKind;

ReportTree TreeBuilder::build_contexts() {
  add_program();
  const auto& nodes = summary_.contexts;
  ContextView view{std::vector<std::vector<std::uint32_t>>(nodes.size() + 1),
                   std::vector<std::uint32_t>(graph_.size(), 0)};
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    view.children[nodes[i].parent].push_back(i);
  }
  for (auto& children : view.children) {
    std::stable_sort(children.begin(), children.end(), [&](std::uint32_t a, std::uint32_t b) {
      return nodes[a].site < nodes[b].site;
    });
  }
  for (const auto& node : nodes) {
    ++view.contexts_of_site[node.site];
  }
  // Contexts at the top: main first, then the rest (threads' bodies, callbacks, MPI calls
  // from uninstrumented code outside any procedure) in site order.
  auto& roots = view.children.front();
  std::stable_partition(roots.begin(), roots.end(),
                        [&](std::uint32_t c) { return nodes[c].site == main_proc_; });
  open_.assign(graph_.size(), 0);
  for (const auto root : roots) {
    add_context(0, view, root, tables::kNoSite);
  }
  finish_program();
  return std::move(tree_);
}

ReportNode TreeBuilder::context_node(const tables::ContextMerge::Node& context,
                                     NodeKind kind) const {
  ReportNode node = node_for(context.site, kind, false);
  node.time = RankStats::reduced(context.time, ranks_);
  node.count = context.count;
  node.untimed = context.untimed;
  node.iterations = context.iterations;
  node.folded = context.folded;
  if (kind == NodeKind::Comm) {
    node.comm = CommBreakdown{context.transmission, context.sync_delay, context.bytes};
  }
  return node;
}

const tables::JobSummary::Statement* TreeBuilder::statement(SiteId comm) const {
  const auto& statements = summary_.statements;
  const auto found = std::lower_bound(statements.begin(), statements.end(), comm,
                                      [](const auto& s, SiteId site) { return s.comm < site; });
  return found != statements.end() && found->comm == comm ? &*found : nullptr;
}

bool TreeBuilder::holds_whole_statement(const ContextView& view,
                                        const tables::ContextMerge::Node& context,
                                        const tables::JobSummary::Statement* statement) const {
  // A context holds at most its statement's records on each rank; with one context of the
  // statement over all ranks, equal sums mean equal records on every rank.
  return statement != nullptr && view.contexts_of_site[context.site] == 1 &&
         static_cast<double>(statement->count) == context.count &&
         static_cast<double>(statement->transmission_ns) == context.transmission &&
         static_cast<double>(statement->sync_delay_ns) == context.sync_delay &&
         static_cast<double>(statement->bytes) == context.bytes;
}

void TreeBuilder::add_partners(std::uint32_t parent,
                               const tables::JobSummary::Statement& statement) {
  const std::vector<std::size_t> order = tables::JobSummary::partners_by_time(statement);
  auto add_partner = [&](std::int32_t partner, const tables::Spread& time,
                         const CommBreakdown& breakdown, double count) {
    if (full()) {
      return;
    }
    ReportNode node = partner_node(parent, partner, statement.partner_count);
    node.time = RankStats::reduced(time, ranks_);
    // A partner's records are held by the ranks that talked to it (often one): balance among
    // those, not against ranks that could never hold them.
    node.time.imbalance_ranks = static_cast<std::int32_t>(time.holders);
    node.comm = breakdown;
    node.count = count;
    finish(tree_.add(std::move(node), parent));
  };
  // The summary holds the partners listed and, beyond them, the others together.
  for (const std::size_t i : order) {
    const auto& p = statement.partners[i];
    add_partner(p.partner, p.time, {p.transmission, p.sync_delay, p.bytes}, p.count);
  }
  if (const auto& others = statement.other_partners) {
    add_partner(ReportNode::kOtherPartners, others->time,
                {others->transmission, others->sync_delay, others->bytes}, others->count);
  }
}

void TreeBuilder::add_context(std::uint32_t parent, const ContextView& view, std::uint32_t index,
                              SiteId call_site) {
  if (full()) {
    return;
  }
  const tables::ContextMerge::Node& context = summary_.contexts[index];
  const auto& children = view.children[index + 1];
  switch (graph_.site(context.site).kind) {
  case SiteKind::Call:
    // A call shows as the procedures it activated; what it ran through uninstrumented code
    // (an MPI call in a library) shows in the caller. Activations folded into the call's
    // context are the caller's.
    tree_.mutable_node(parent).folded += context.folded;
    for (const auto child : children) {
      const bool activated = graph_.site(summary_.contexts[child].site).kind == SiteKind::Procedure;
      add_context(parent, view, child, activated ? context.site : tables::kNoSite);
    }
    return;
  case SiteKind::Procedure: {
    ReportNode node = context_node(context, NodeKind::Procedure);
    node.call_site = call_site;
    if (call_site != tables::kNoSite) {
      node.call_pos = graph_.site(call_site).pos;
    }
    // Entered again inside its own activation: counted here, its time and what it ran in
    // the outermost activation's context (docs/runtime.md, "Calling contexts").
    node.recursive = open_[context.site] > 0;
    const std::uint32_t self = tree_.add(std::move(node), parent);
    ++open_[context.site];
    for (const auto child : children) {
      add_context(self, view, child, tables::kNoSite);
    }
    --open_[context.site];
    finish(self);
    return;
  }
  case SiteKind::Loop: {
    const std::uint32_t self = tree_.add(context_node(context, NodeKind::Loop), parent);
    for (const auto child : children) {
      add_context(self, view, child, tables::kNoSite);
    }
    finish(self);
    return;
  }
  case SiteKind::Comm: {
    ReportNode node = context_node(context, NodeKind::Comm);
    const auto* statement_records = statement(context.site);
    const bool whole = holds_whole_statement(view, context, statement_records);
    node.partners_elsewhere = !whole && statement_records != nullptr;
    const std::uint32_t self = tree_.add(std::move(node), parent);
    if (whole) {
      add_partners(self, *statement_records);
    }
    // Procedures the MPI call ran: a reduction operator, an error handler, a signal handler.
    // Their time is inside the statement's, which its partner rows already divide up: they
    // take none of it from the statement's self time.
    for (const auto child : children) {
      const std::uint32_t first = static_cast<std::uint32_t>(tree_.size());
      add_context(self, view, child, context.site);
      if (tree_.size() > first) {
        tree_.mutable_node(first).counted_ns = 0;
      }
    }
    finish(self);
    return;
  }
  }
}

} // namespace vcmon::report
