// Builds the full top-down tree from the static tables and the job's summary: from the merged
// calling contexts when the profile has them, else from the per-site records indexed by rank,
// with the records of procedures activated from several call sites apportioned.
#pragma once

#include "RecordIndex.hpp"

#include "vcmon/report/ReportTree.hpp"
#include "vcmon/tables/CallGraph.hpp"
#include "vcmon/tables/JobSummary.hpp"

#include <unordered_map>
#include <vector>

namespace vcmon::report {

class TreeBuilder {
public:
  // Beyond this many nodes the tree stops growing (a procedure reached along very many call
  // paths would otherwise multiply); the header says so.
  static constexpr std::size_t kMaxNodes = 200'000;
  // Partners listed one by one under a statement; the rest are summed in one node.
  static constexpr std::size_t kMaxPartners = tables::kListedPartners;

  // `summary` is of the selected ranks; `index`, their records by site, is needed by the tree of
  // per-site records only (build()). Both must outlive the builder.
  TreeBuilder(const tables::ProgramGraph& graph, const tables::JobSummary& summary,
              const RecordIndex* index);

  // The tree of the per-site records, apportioned among call sites.
  ReportTree build();
  // The tree of the calling contexts (the summary's): each node one path, exact.
  ReportTree build_contexts();
  bool truncated() const { return truncated_; }
  // The per-site view: one row per proc record's (procedure, call site), loop and statement,
  // every context summed, in site order; no children, self time 0.
  std::vector<ReportNode> site_totals();

private:
  using Share = std::vector<double>; // per selected rank: the part of a site's records in context

  void add_program();
  void finish_program();
  // Context mode: the context `index` of the summary under tree node `parent`.
  struct ContextView {
    std::vector<std::vector<std::uint32_t>> children; // in site order
    std::vector<std::uint32_t> contexts_of_site;
  };
  void add_context(std::uint32_t parent, const ContextView& view, std::uint32_t index,
                   tables::SiteId call_site);
  ReportNode context_node(const tables::ContextMerge::Node& context, NodeKind kind) const;
  // Whether `context`, a statement's, holds every record of its statement on every rank, so
  // that the statement's partners are its own.
  bool holds_whole_statement(const ContextView& view, const tables::ContextMerge::Node& context,
                             const tables::JobSummary::Statement* statement) const;
  // The summary's partners of `statement` under tree node `parent`.
  void add_partners(std::uint32_t parent, const tables::JobSummary::Statement& statement);
  // A partner node (or the other partners', ReportNode::kOtherPartners) under the statement
  // node `parent`, whose statement has `partners` partners.
  ReportNode partner_node(std::uint32_t parent, std::int32_t partner, std::size_t partners) const;
  const tables::JobSummary::Statement* statement(tables::SiteId comm) const;
  ReportNode totals_node(tables::SiteId site, NodeKind kind, const tables::Spread& time) const;

  ReportNode activation_node(tables::SiteId proc, tables::SiteId call_site, const Share& share,
                             bool apportioned);
  ReportNode loop_node(tables::SiteId loop, const RecordIndex::Loop& column, const Share& share,
                       bool apportioned);
  ReportNode comm_node(tables::SiteId comm, const RecordIndex::Comm& column, const Share& share,
                       bool apportioned);

  void add_activation(std::uint32_t parent, tables::SiteId proc, tables::SiteId call_site,
                      const Share& share, bool apportioned);
  void add_sites_of(std::uint32_t parent, tables::SiteId scope, const Share& share,
                    bool apportioned);
  void add_loop(std::uint32_t parent, tables::SiteId loop, const Share& share, bool apportioned);
  void add_comm(std::uint32_t parent, tables::SiteId comm, const Share& share, bool apportioned);
  void add_partners(std::uint32_t parent, const RecordIndex::Comm& column, const Share& share,
                    bool apportioned);
  // Fills time from per-rank values, then counted and self time once the children exist.
  ReportNode node_for(tables::SiteId site, NodeKind kind, bool apportioned) const;
  void finish(std::uint32_t index);
  bool full();
  // Per rank, the time of every activation entering `proc`'s component from outside it.
  const std::vector<double>& external_time(tables::SiteId proc);
  bool inside_component(tables::SiteId proc, tables::SiteId call_site) const;

  const tables::ProgramGraph& graph_;
  const tables::JobSummary& summary_;
  const RecordIndex* index_;
  std::vector<std::int32_t> ranks_;  // the selected ranks, in order
  std::vector<double> program_time_; // per selected rank: the program's total
  tables::CallGraph calls_;
  // Each site's children in id order, built once: the tree visits a procedure many times.
  std::vector<std::vector<tables::SiteId>> children_;
  ReportTree tree_;
  // Members of the recursive component being expanded that already show their sites: each is
  // shown once per entry into the component, not once per path around its cycles.
  std::vector<bool> expanded_;
  std::vector<tables::SiteId> expanded_order_;
  // Per component: its activations as (proc, call site), and their time entering from outside.
  std::unordered_map<std::size_t, std::vector<std::pair<tables::SiteId, tables::SiteId>>> entries_;
  std::unordered_map<std::size_t, std::vector<double>> external_time_;
  std::vector<double> scratch_;
  // Context mode: activations of each procedure open on the path being added (a procedure
  // entered again inside itself is recursive).
  std::vector<std::uint32_t> open_;
  double program_total_ = 0;
  tables::SiteId main_proc_ = tables::kNoSite; // the procedure named main, if instrumented
  bool truncated_ = false;
};

} // namespace vcmon::report
