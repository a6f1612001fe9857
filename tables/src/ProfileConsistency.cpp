#include "ProfileConsistency.hpp"

namespace vcmon::tables::detail {
namespace {

using std::to_string;

// Why `id` cannot be a site of `kind` in `graph`, or nothing when it can.
std::optional<std::string> wrong_site(const ProgramGraph& graph, SiteId id, SiteKind kind) {
  if (id >= graph.size()) {
    return "site " + to_string(id) + " does not exist (the graph has " + to_string(graph.size()) +
           " sites)";
  }
  if (graph.sites()[id].kind != kind) {
    return "site " + to_string(id) + " is a " + tables::to_string(graph.sites()[id].kind) +
           ", not a " + tables::to_string(kind);
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> find_inconsistency(const RankRecords& r, const ProgramGraph& graph,
                                              std::int32_t ranks) {
  for (const ProcRecord& p : r.procs) {
    if (auto problem = wrong_site(graph, p.proc, SiteKind::Procedure)) {
      return "proc record: " + *problem;
    }
    if (p.call_site != kNoSite) {
      if (auto problem = wrong_site(graph, p.call_site, SiteKind::Call)) {
        return "proc record's call site: " + *problem;
      }
    }
    if (p.untimed > p.count) {
      return "proc record of site " + to_string(p.proc) + ": " + to_string(p.untimed) +
             " untimed activations of " + to_string(p.count);
    }
  }
  for (const LoopRecord& l : r.loops) {
    if (auto problem = wrong_site(graph, l.loop, SiteKind::Loop)) {
      return "loop record: " + *problem;
    }
  }
  for (const ComRecord& c : r.coms) {
    if (auto problem = wrong_site(graph, c.comm, SiteKind::Comm)) {
      return "com record: " + *problem;
    }
    if (c.partner < ComRecord::kCollective || c.partner >= ranks) {
      return "com record of site " + to_string(c.comm) + ": partner " + to_string(c.partner) +
             " is not a rank of the " + to_string(ranks) + "-rank run";
    }
    const std::uint64_t messages = c.sizes.messages();
    if (messages > c.count || !c.sizes.extremes_fit_classes()) {
      return "com record of site " + to_string(c.comm) + ": message sizes disagree (" +
             to_string(messages) + " messages of " + to_string(c.count) + " operations, " +
             to_string(c.sizes.min_bytes) + " to " + to_string(c.sizes.max_bytes) + " bytes)";
    }
  }
  return find_inconsistency(r.contexts, 0, graph);
}

std::optional<std::string> find_inconsistency(std::span<const ContextRecord> contexts,
                                              std::size_t first, const ProgramGraph& graph) {
  for (std::size_t i = first; const ContextRecord& c : contexts) {
    if (c.parent > i) {
      return "context record " + to_string(i) + ": its parent " + to_string(c.parent) +
             " does not come before it";
    }
    if (c.site >= graph.size()) {
      return "context record " + to_string(i) + ": site " + to_string(c.site) +
             " does not exist (the graph has " + to_string(graph.size()) + " sites)";
    }
    if (c.untimed > c.count) {
      return "context record " + to_string(i) + ": " + to_string(c.untimed) +
             " untimed activations of " + to_string(c.count);
    }
    ++i;
  }
  return std::nullopt;
}

std::optional<std::string> find_inconsistency(const Profile& profile) {
  if (profile.meta.ranks < 0) {
    return "negative rank count " + to_string(profile.meta.ranks);
  }
  std::int64_t previous_rank = -1;
  for (const RankRecords& r : profile.ranks) {
    if (r.rank < 0 || r.rank >= profile.meta.ranks) {
      return "rank " + to_string(r.rank) + " is outside the " + to_string(profile.meta.ranks) +
             "-rank run";
    }
    if (r.rank <= previous_rank) {
      return "rank " + to_string(r.rank) + " follows rank " + to_string(previous_rank) +
             ": ranks must be sorted and distinct";
    }
    previous_rank = r.rank;
    if (auto problem = find_inconsistency(r, profile.graph, profile.meta.ranks)) {
      return "rank " + to_string(r.rank) + ": " + *problem;
    }
  }
  return std::nullopt;
}

} // namespace vcmon::tables::detail
