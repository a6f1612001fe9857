#include "TreeBuilder.hpp"

#include "CommSummary.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <span>

namespace vcmon::report {

using tables::SiteId;
using tables::SiteKind;

TreeBuilder::TreeBuilder(const tables::ProgramGraph& graph, const tables::JobSummary& summary,
                         const RecordIndex* index)
    : graph_(graph), summary_(summary), index_(index), calls_(graph),
      expanded_(graph.size(), false), scratch_(summary.ranks.size(), 0.0) {
  for (const auto& rank : summary.ranks) {
    ranks_.push_back(rank.rank);
    program_time_.push_back(rank.application_ns);
  }
  if (index != nullptr) {
    for (const auto& key : index->activation_keys()) {
      entries_[calls_.component_of(key.first)].push_back(key);
    }
  }
  children_.resize(graph.size());
  for (const auto& site : graph.sites()) {
    if (site.parent != tables::kNoSite) {
      children_[site.parent].push_back(site.id);
    }
  }
}

void TreeBuilder::add_program() {
  program_total_ = std::accumulate(program_time_.begin(), program_time_.end(), 0.0);
  ReportNode root;
  root.kind = NodeKind::Program;
  root.name = "program";
  root.time = RankStats::of(program_time_, ranks_);
  tree_.add(std::move(root), 0);
  if (const auto main_proc = graph_.find_main()) {
    main_proc_ = *main_proc;
  }
}

void TreeBuilder::finish_program() {
  // Every root but main ran beside main (a thread) or inside it (a callback): the program
  // adds only main (docs/report.md, "The tree's invariant").
  for (const auto child : tree_.node(0).children) {
    ReportNode& root = tree_.mutable_node(child);
    if (root.site != main_proc_ || root.kind != NodeKind::Procedure) {
      root.outside_main = true;
      root.counted_ns = 0;
    }
  }
  finish(0);
}

ReportTree TreeBuilder::build() {
  add_program();
  // Procedures entered from outside the program: main first, then the rest in site order.
  std::vector<SiteId> roots(index_->callees(tables::kNoSite).begin(),
                            index_->callees(tables::kNoSite).end());
  std::stable_partition(roots.begin(), roots.end(),
                        [&](SiteId proc) { return proc == main_proc_; });
  const Share whole(ranks_.size(), 1.0);
  for (const SiteId proc : roots) {
    add_activation(0, proc, tables::kNoSite, whole, false);
  }
  finish_program();
  return std::move(tree_);
}

ReportNode TreeBuilder::totals_node(SiteId site, NodeKind kind, const tables::Spread& time) const {
  ReportNode node = node_for(site, kind, false);
  node.time = RankStats::reduced(time, ranks_);
  return node;
}

std::vector<ReportNode> TreeBuilder::site_totals() {
  std::vector<ReportNode> rows;
  for (const auto& activation : summary_.activations) {
    ReportNode node = totals_node(activation.proc, NodeKind::Procedure, activation.time);
    node.call_site = activation.call_site;
    if (activation.call_site != tables::kNoSite) {
      node.call_pos = graph_.site(activation.call_site).pos;
    }
    node.count = activation.count;
    node.untimed = activation.untimed;
    rows.push_back(std::move(node));
  }
  // Loops and statements in site order.
  auto loop = summary_.loops.begin();
  auto statement = summary_.statements.begin();
  while (loop != summary_.loops.end() || statement != summary_.statements.end()) {
    if (statement == summary_.statements.end() ||
        (loop != summary_.loops.end() && loop->loop < statement->comm)) {
      ReportNode node = totals_node(loop->loop, NodeKind::Loop, loop->time);
      node.count = loop->count;
      node.iterations = loop->iterations;
      rows.push_back(std::move(node));
      ++loop;
    } else {
      ReportNode node = totals_node(statement->comm, NodeKind::Comm, statement->time);
      node.count = static_cast<double>(statement->count);
      node.comm = CommBreakdown{static_cast<double>(statement->transmission_ns),
                                static_cast<double>(statement->sync_delay_ns),
                                static_cast<double>(statement->bytes)};
      rows.push_back(std::move(node));
      ++statement;
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ReportNode& row = rows[i];
    row.id = static_cast<std::uint32_t>(i);
    row.counted_ns = row.time.total;
    row.percent = program_total_ > 0 ? 100.0 * row.time.total / program_total_ : 0.0;
  }
  return rows;
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
    node.counted_only = s.probing == tables::SiteProbing::Counted;
    if (kind == NodeKind::Loop && node.name.empty()) {
      node.name = "loop";
    }
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
    found->second.assign(ranks_.size(), 0.0);
    for (const auto& [callee, call_site] : entries_[component]) {
      if (!inside_component(callee, call_site)) {
        const auto& time = index_->activation(callee, call_site)->time;
        std::transform(time.begin(), time.end(), found->second.begin(), found->second.begin(),
                       std::plus<>());
      }
    }
  }
  return found->second;
}

ReportNode TreeBuilder::activation_node(SiteId proc, SiteId call_site, const Share& share,
                                        bool apportioned) {
  const auto* column = index_->activation(proc, call_site);
  ReportNode node = node_for(proc, NodeKind::Procedure, apportioned);
  node.call_site = call_site;
  if (call_site != tables::kNoSite) {
    node.call_pos = graph_.site(call_site).pos;
  }
  for (std::size_t r = 0; r < share.size(); ++r) {
    scratch_[r] = column->time[r] * share[r];
    node.count += column->count[r] * share[r];
    node.untimed += column->untimed[r] * share[r];
  }
  node.time = RankStats::of(scratch_, ranks_);
  return node;
}

void TreeBuilder::add_activation(std::uint32_t parent, SiteId proc, SiteId call_site,
                                 const Share& share, bool apportioned) {
  if (full()) {
    return;
  }
  const auto* column = index_->activation(proc, call_site);
  const std::size_t n = share.size();
  ReportNode node = activation_node(proc, call_site, share, apportioned);
  node.recursive = inside_component(proc, call_site);
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
  for (const SiteId child : children_[scope]) {
    switch (graph_.site(child).kind) {
    case SiteKind::Loop:
      add_loop(parent, child, share, apportioned);
      break;
    case SiteKind::Comm:
      add_comm(parent, child, share, apportioned);
      break;
    case SiteKind::Call:
      for (const SiteId callee : index_->callees(child)) {
        add_activation(parent, callee, child, share, apportioned);
      }
      break;
    case SiteKind::Procedure:
      break; // nested procedures (lambdas) are reached through their calls
    }
  }
}

ReportNode TreeBuilder::loop_node(SiteId loop, const RecordIndex::Loop& column, const Share& share,
                                  bool apportioned) {
  ReportNode node = node_for(loop, NodeKind::Loop, apportioned);
  for (std::size_t r = 0; r < share.size(); ++r) {
    scratch_[r] = column.time[r] * share[r];
    node.count += column.count[r] * share[r];
    node.iterations += column.iterations[r] * share[r];
  }
  node.time = RankStats::of(scratch_, ranks_);
  return node;
}

void TreeBuilder::add_loop(std::uint32_t parent, SiteId loop, const Share& share,
                           bool apportioned) {
  const auto* column = index_->loop(loop);
  if (column == nullptr || full()) {
    return;
  }
  const std::uint32_t self = tree_.add(loop_node(loop, *column, share, apportioned), parent);
  add_sites_of(self, loop, share, apportioned);
  finish(self);
}

ReportNode TreeBuilder::comm_node(SiteId comm, const RecordIndex::Comm& column, const Share& share,
                                  bool apportioned) {
  ReportNode node = node_for(comm, NodeKind::Comm, apportioned);
  CommBreakdown breakdown;
  for (std::size_t r = 0; r < share.size(); ++r) {
    scratch_[r] = (column.transmission[r] + column.sync_delay[r]) * share[r];
    node.count += column.count[r] * share[r];
    breakdown.transmission_ns += column.transmission[r] * share[r];
    breakdown.sync_delay_ns += column.sync_delay[r] * share[r];
    breakdown.bytes += column.bytes[r] * share[r];
  }
  node.time = RankStats::of(scratch_, ranks_);
  node.comm = breakdown;
  return node;
}

void TreeBuilder::add_comm(std::uint32_t parent, SiteId comm, const Share& share,
                           bool apportioned) {
  const auto* column = index_->comm(comm);
  if (column == nullptr || full()) {
    return;
  }
  const std::uint32_t self = tree_.add(comm_node(comm, *column, share, apportioned), parent);
  add_partners(self, *column, share, apportioned);
  finish(self);
}

void TreeBuilder::add_partners(std::uint32_t parent, const RecordIndex::Comm& column,
                               const Share& share, bool apportioned) {
  // Entries are sorted by partner: each partner is a run of them, one per rank.
  struct Run {
    std::size_t begin, end;
    double total;
  };
  const auto& entries = column.entries;
  auto time_of = [&](const RecordIndex::PartnerEntry& e) {
    return static_cast<double>(e.record->transmission_ns + e.record->sync_delay_ns) *
           share[e.rank_index];
  };
  std::vector<Run> runs;
  runs.reserve(column.partners);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (runs.empty() || entries[i].record->partner != entries[runs.back().begin].record->partner) {
      runs.push_back({i, i, 0.0});
    }
    runs.back().end = i + 1;
    runs.back().total += time_of(entries[i]);
  }
  std::stable_sort(runs.begin(), runs.end(),
                   [](const Run& a, const Run& b) { return a.total > b.total; });

  auto add_partner = [&](std::int32_t partner, std::span<const Run> group) {
    if (full()) {
      return;
    }
    ReportNode node = partner_node(parent, partner, runs.size());
    node.apportioned = apportioned;
    CommBreakdown breakdown;
    std::fill(scratch_.begin(), scratch_.end(), 0.0);
    std::vector<bool> holds(scratch_.size(), false);
    for (const Run& run : group) {
      for (std::size_t i = run.begin; i < run.end; ++i) {
        const auto& e = entries[i];
        const double part = share[e.rank_index];
        scratch_[e.rank_index] += time_of(e);
        holds[e.rank_index] = true;
        breakdown.transmission_ns += static_cast<double>(e.record->transmission_ns) * part;
        breakdown.sync_delay_ns += static_cast<double>(e.record->sync_delay_ns) * part;
        breakdown.bytes += static_cast<double>(e.record->bytes) * part;
        node.count += static_cast<double>(e.record->count) * part;
      }
    }
    node.time = RankStats::of(scratch_, ranks_);
    // A partner's records are held by the ranks that talked to it (often one): balance among
    // those, not against ranks that could never hold them (partner_node).
    node.time.imbalance_ranks =
        static_cast<std::int32_t>(std::count(holds.begin(), holds.end(), true));
    node.comm = breakdown;
    finish(tree_.add(std::move(node), parent));
  };
  const std::span<const Run> all(runs);
  for (std::size_t i = 0; i < std::min(runs.size(), kMaxPartners); ++i) {
    add_partner(entries[runs[i].begin].record->partner, all.subspan(i, 1));
  }
  if (runs.size() > kMaxPartners) {
    add_partner(ReportNode::kOtherPartners, all.subspan(kMaxPartners));
  }
}

ReportNode TreeBuilder::partner_node(std::uint32_t parent, std::int32_t partner,
                                     std::size_t partners) const {
  ReportNode node = node_for(tables::kNoSite, NodeKind::Partner, false);
  node.name = partner == ReportNode::kOtherPartners
                  ? fmt::format("{} other partners", partners - kMaxPartners)
              : partner == tables::ComRecord::kCollective
                  ? std::string(rankless_partner_label(tree_.node(parent).name))
                  : fmt::format("rank {}", partner);
  node.pos = tree_.node(parent).pos;
  node.partner = partner;
  return node;
}

void TreeBuilder::finish(std::uint32_t index) {
  ReportNode& node = tree_.mutable_node(index);
  double children = 0;
  for (const auto child : node.children) {
    children += tree_.node(child).counted_ns;
  }
  node.counted_ns = node.recursive ? children : node.time.total;
  node.self_ns = node.recursive ? 0.0 : node.time.total - children;
  const auto ranks = static_cast<double>(ranks_.size());
  node.self_mean_ns = ranks > 0 ? node.self_ns / ranks : 0.0;
  node.percent = program_total_ > 0 ? 100.0 * node.time.total / program_total_ : 0.0;
}

} // namespace vcmon::report
