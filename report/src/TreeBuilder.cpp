#include "TreeBuilder.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

namespace vcmon::report {

using tables::SiteId;
using tables::SiteKind;

TreeBuilder::TreeBuilder(const tables::ProgramGraph& graph, const RecordIndex& index)
    : graph_(graph), index_(index), calls_(graph), expanded_(graph.size(), false),
      scratch_(index.ranks().size(), 0.0) {}

ReportTree TreeBuilder::build() {
  const auto& program = index_.program_time();
  program_total_ = std::accumulate(program.begin(), program.end(), 0.0);

  ReportNode root;
  root.kind = NodeKind::Program;
  root.name = "program";
  root.time = RankStats::of(program, index_.ranks());
  tree_.add(std::move(root), 0);

  // Procedures entered from outside the program: main first, then the rest in site order.
  std::vector<SiteId> roots(index_.callees(tables::kNoSite).begin(),
                            index_.callees(tables::kNoSite).end());
  if (const auto main_proc = graph_.find_procedure("main")) {
    std::stable_partition(roots.begin(), roots.end(),
                          [&](SiteId proc) { return proc == *main_proc; });
  }
  const Share whole(index_.ranks().size(), 1.0);
  for (const SiteId proc : roots) {
    add_activation(0, proc, tables::kNoSite, whole, false);
  }
  finish(0);
  return std::move(tree_);
}

bool TreeBuilder::full() {
  if (tree_.size() >= kMaxNodes) {
    truncated_ = true;
  }
  return truncated_;
}

ReportNode TreeBuilder::node_for(SiteId site, NodeKind kind, bool apportioned) const {
  ReportNode node;
  node.kind = kind;
  node.site = site;
  node.apportioned = apportioned;
  if (site != tables::kNoSite) {
    const auto& s = graph_.site(site);
    node.name = s.name;
    node.pos = s.pos;
  }
  node.id = static_cast<std::uint32_t>(tree_.size());
  return node;
}

bool TreeBuilder::inside_component(SiteId proc, SiteId call_site) const {
  if (call_site == tables::kNoSite || !calls_.is_recursive(proc)) {
    return false;
  }
  const SiteId caller = graph_.enclosing_procedure(call_site);
  return caller != tables::kNoSite && calls_.component_of(caller) == calls_.component_of(proc);
}

const std::vector<double>& TreeBuilder::external_time(SiteId proc) {
  const std::size_t component = calls_.component_of(proc);
  auto [found, inserted] = external_time_.try_emplace(component);
  if (inserted) {
    found->second.assign(index_.ranks().size(), 0.0);
    for (const auto& [callee, call_site] : index_.activation_keys()) {
      if (calls_.component_of(callee) == component && !inside_component(callee, call_site)) {
        const auto& time = index_.activation(callee, call_site)->time;
        std::transform(time.begin(), time.end(), found->second.begin(), found->second.begin(),
                       std::plus<>());
      }
    }
  }
  return found->second;
}

void TreeBuilder::add_activation(std::uint32_t parent, SiteId proc, SiteId call_site,
                                 const Share& share, bool apportioned) {
  if (full()) {
    return;
  }
  const auto* column = index_.activation(proc, call_site);
  const std::size_t n = share.size();
  ReportNode node = node_for(proc, NodeKind::Procedure, apportioned);
  node.call_site = call_site;
  if (call_site != tables::kNoSite) {
    node.call_pos = graph_.site(call_site).pos;
  }
  node.recursive = inside_component(proc, call_site);
  double count = 0;
  for (std::size_t r = 0; r < n; ++r) {
    scratch_[r] = column->time[r] * share[r];
    count += column->count[r] * share[r];
  }
  node.time = RankStats::of(scratch_, index_.ranks());
  node.count = count;
  const std::uint32_t self = tree_.add(std::move(node), parent);

  // A component member already shown under this entry is not expanded again.
  if (expanded_[proc]) {
    finish(self);
    return;
  }
  const bool entry = !tree_.node(self).recursive;
  Share inner = share;
  bool split = false;
  if (entry) {
    // The component is entered here: its sites get this activation's part of their records.
    const auto& external = external_time(proc);
    for (std::size_t r = 0; r < n; ++r) {
      const double part = external[r] > 0 ? column->time[r] / external[r] : 0.0;
      split = split || (external[r] > 0 && part != 1.0);
      inner[r] = share[r] * part;
    }
  }
  const std::size_t marked = expanded_order_.size();
  expanded_[proc] = true;
  expanded_order_.push_back(proc);
  add_sites_of(self, proc, inner, apportioned || split);
  if (entry) {
    // Leaving the component: another entry shows its members again, with its own share.
    for (std::size_t i = marked; i < expanded_order_.size(); ++i) {
      expanded_[expanded_order_[i]] = false;
    }
    expanded_order_.resize(marked);
  }
  finish(self);
}

void TreeBuilder::add_sites_of(std::uint32_t parent, SiteId scope, const Share& share,
                               bool apportioned) {
  for (const SiteId child : graph_.children(scope)) {
    switch (graph_.site(child).kind) {
    case SiteKind::Loop:
      add_loop(parent, child, share, apportioned);
      break;
    case SiteKind::Comm:
      add_comm(parent, child, share, apportioned);
      break;
    case SiteKind::Call:
      for (const SiteId callee : index_.callees(child)) {
        add_activation(parent, callee, child, share, apportioned);
      }
      break;
    case SiteKind::Procedure:
      break; // nested procedures (lambdas) are reached through their calls
    }
  }
}

void TreeBuilder::add_loop(std::uint32_t parent, SiteId loop, const Share& share,
                           bool apportioned) {
  const auto* column = index_.loop(loop);
  if (column == nullptr || full()) {
    return;
  }
  ReportNode node = node_for(loop, NodeKind::Loop, apportioned);
  if (node.name.empty()) {
    node.name = "loop";
  }
  for (std::size_t r = 0; r < share.size(); ++r) {
    scratch_[r] = column->time[r] * share[r];
    node.count += column->count[r] * share[r];
    node.iterations += column->iterations[r] * share[r];
  }
  node.time = RankStats::of(scratch_, index_.ranks());
  const std::uint32_t self = tree_.add(std::move(node), parent);
  add_sites_of(self, loop, share, apportioned);
  finish(self);
}

void TreeBuilder::add_comm(std::uint32_t parent, SiteId comm, const Share& share,
                           bool apportioned) {
  const auto* column = index_.comm(comm);
  if (column == nullptr || full()) {
    return;
  }
  ReportNode node = node_for(comm, NodeKind::Comm, apportioned);
  CommBreakdown breakdown;
  for (std::size_t r = 0; r < share.size(); ++r) {
    scratch_[r] = (column->transmission[r] + column->sync_delay[r]) * share[r];
    node.count += column->count[r] * share[r];
    breakdown.transmission_ns += column->transmission[r] * share[r];
    breakdown.sync_delay_ns += column->sync_delay[r] * share[r];
    breakdown.bytes += column->bytes[r] * share[r];
  }
  node.time = RankStats::of(scratch_, index_.ranks());
  node.comm = breakdown;
  const std::uint32_t self = tree_.add(std::move(node), parent);
  add_partners(self, *column, share, apportioned);
  finish(self);
}

void TreeBuilder::add_partners(std::uint32_t parent, const RecordIndex::Comm& column,
                               const Share& share, bool apportioned) {
  struct Partner {
    std::int32_t rank;
    std::vector<double> values;
    std::vector<std::int32_t> ranks;
    std::vector<std::uint32_t> rank_indices;
    CommBreakdown breakdown;
    double count = 0;
    double total = 0;
  };
  std::vector<Partner> partners;
  for (const auto& [partner, entries] : column.partners) {
    Partner p{partner, {}, {}, {}, {}, 0, 0};
    for (const auto& entry : entries) {
      const double part = share[entry.rank_index];
      const auto& rec = entry.record;
      p.values.push_back(static_cast<double>(rec.transmission_ns + rec.sync_delay_ns) * part);
      p.ranks.push_back(index_.ranks()[entry.rank_index]);
      p.rank_indices.push_back(entry.rank_index);
      p.breakdown.transmission_ns += static_cast<double>(rec.transmission_ns) * part;
      p.breakdown.sync_delay_ns += static_cast<double>(rec.sync_delay_ns) * part;
      p.breakdown.bytes += static_cast<double>(rec.bytes) * part;
      p.count += static_cast<double>(rec.count) * part;
      p.total += p.values.back();
    }
    partners.push_back(std::move(p));
  }
  std::stable_sort(partners.begin(), partners.end(),
                   [](const Partner& a, const Partner& b) { return a.total > b.total; });

  const std::size_t n = index_.ranks().size();
  auto add_partner = [&](const Partner& p, std::string name) {
    if (full()) {
      return;
    }
    ReportNode node = node_for(tables::kNoSite, NodeKind::Partner, apportioned);
    node.name = std::move(name);
    node.pos = tree_.node(parent).pos;
    node.partner = p.rank;
    node.time = RankStats::of_sparse(p.values, p.ranks, n);
    node.count = p.count;
    node.comm = p.breakdown;
    finish(tree_.add(std::move(node), parent));
  };
  for (std::size_t i = 0; i < std::min(partners.size(), kMaxPartners); ++i) {
    const auto& p = partners[i];
    add_partner(p, p.rank == tables::ComRecord::kCollective ? std::string("collective")
                                                            : fmt::format("rank {}", p.rank));
  }
  if (partners.size() > kMaxPartners) {
    // Per rank, the sum over the remaining partners.
    std::vector<double> per_rank(n, 0.0);
    Partner others{ReportNode::kOtherPartners, {}, {}, {}, {}, 0, 0};
    for (std::size_t i = kMaxPartners; i < partners.size(); ++i) {
      const auto& p = partners[i];
      for (std::size_t k = 0; k < p.values.size(); ++k) {
        per_rank[p.rank_indices[k]] += p.values[k];
      }
      others.breakdown.transmission_ns += p.breakdown.transmission_ns;
      others.breakdown.sync_delay_ns += p.breakdown.sync_delay_ns;
      others.breakdown.bytes += p.breakdown.bytes;
      others.count += p.count;
    }
    others.values = std::move(per_rank);
    others.ranks.assign(index_.ranks().begin(), index_.ranks().end());
    add_partner(others, fmt::format("{} other partners", partners.size() - kMaxPartners));
  }
}

void TreeBuilder::finish(std::uint32_t index) {
  ReportNode& node = tree_.mutable_node(index);
  double children = 0;
  for (const auto child : node.children) {
    children += tree_.node(child).counted_ns;
  }
  node.counted_ns = node.recursive ? children : node.time.total;
  node.self_ns = node.recursive ? 0.0 : std::max(0.0, node.time.total - children);
  node.percent = program_total_ > 0 ? 100.0 * node.time.total / program_total_ : 0.0;
}

} // namespace vcmon::report
