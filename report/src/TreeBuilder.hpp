// Builds the full top-down tree from the static tables and the indexed records.
#pragma once

#include "RecordIndex.hpp"

#include "vcmon/report/ReportTree.hpp"
#include "vcmon/tables/CallGraph.hpp"

#include <unordered_map>
#include <vector>

namespace vcmon::report {

class TreeBuilder {
public:
  // Beyond this many nodes the tree stops growing (a procedure reached along very many call
  // paths would otherwise multiply); the header says so.
  static constexpr std::size_t kMaxNodes = 200'000;
  // Partners listed one by one under a statement; the rest are summed in one node.
  static constexpr std::size_t kMaxPartners = 16;

  TreeBuilder(const tables::ProgramGraph& graph, const RecordIndex& index);

  ReportTree build();
  bool truncated() const { return truncated_; }

private:
  using Share = std::vector<double>; // per selected rank: the part of a site's records in context

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
  const RecordIndex& index_;
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
  double program_total_ = 0;
  tables::SiteId main_proc_ = tables::kNoSite; // the procedure named main, if instrumented
  bool truncated_ = false;
};

} // namespace vcmon::report
