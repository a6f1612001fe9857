// TreeBuilder's context mode: the tree is the ranks' calling contexts merged by path
// (docs/report.md, "The tree"), each node exactly its path's records.
#include "TreeBuilder.hpp"

#include <algorithm>
#include <numeric>

namespace vcmon::report {

using tables::SiteId;
using tables::SiteKind;

namespace {

double sum(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0);
}

} // namespace

ReportTree TreeBuilder::build(const ContextMerge& contexts) {
  add_program();
  ContextView view{contexts, contexts.children(), std::vector<std::uint32_t>(graph_.size(), 0)};
  const auto nodes = contexts.nodes();
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

ReportNode TreeBuilder::context_node(const ContextMerge::Node& context, NodeKind kind) const {
  ReportNode node = node_for(context.site, kind, false);
  node.time = context.time.stats(index_.ranks());
  node.count = context.count;
  node.untimed = context.untimed;
  node.iterations = context.iterations;
  node.folded = context.folded;
  if (kind == NodeKind::Comm) {
    node.comm = CommBreakdown{context.transmission, context.sync_delay, context.bytes};
  }
  return node;
}

bool TreeBuilder::holds_whole_statement(const ContextView& view,
                                        const ContextMerge::Node& context) const {
  // A context holds at most its statement's records on each rank; with one context of the
  // statement over all ranks, equal sums mean equal records on every rank.
  const auto* column = index_.comm(context.site);
  return column != nullptr && view.contexts_of_site[context.site] == 1 &&
         sum(column->count) == context.count && sum(column->transmission) == context.transmission &&
         sum(column->sync_delay) == context.sync_delay && sum(column->bytes) == context.bytes;
}

void TreeBuilder::add_context(std::uint32_t parent, const ContextView& view, std::uint32_t index,
                              SiteId call_site) {
  if (full()) {
    return;
  }
  const ContextMerge::Node& context = view.merge.nodes()[index];
  const auto& children = view.children[index + 1];
  switch (graph_.site(context.site).kind) {
  case SiteKind::Call:
    // A call shows as the procedures it activated; what it ran through uninstrumented code
    // (an MPI call in a library) shows in the caller. Activations folded into the call's
    // context are the caller's.
    tree_.mutable_node(parent).folded += context.folded;
    for (const auto child : children) {
      const bool activated =
          graph_.site(view.merge.nodes()[child].site).kind == SiteKind::Procedure;
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
    const bool whole = holds_whole_statement(view, context);
    node.partners_elsewhere = !whole && index_.comm(context.site) != nullptr;
    const std::uint32_t self = tree_.add(std::move(node), parent);
    if (whole) {
      add_partners(self, *index_.comm(context.site), Share(index_.ranks().size(), 1.0), false);
    }
    finish(self);
    return;
  }
  }
}

} // namespace vcmon::report
