#include "vcmon/report/SelectionSuggestion.hpp"

#include "vcmon/report/ReportError.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace vcmon::report {
namespace {

using tables::SiteId;
using tables::SiteKind;
using tables::SiteProbing;

struct ProcTotals {
  double time_ns = 0;
  double calls = 0;
  double timed_calls = 0;
};

std::map<SiteId, ProcTotals> totals(const tables::Profile& profile,
                                    std::optional<std::int32_t> rank, std::int32_t& ranks_used) {
  std::map<SiteId, ProcTotals> out;
  ranks_used = 0;
  for (const auto& records : profile.ranks) {
    if (rank && records.rank != *rank) {
      continue;
    }
    ++ranks_used;
    for (const auto& proc : records.procs) {
      auto& t = out[proc.proc];
      t.time_ns += static_cast<double>(proc.time_ns);
      t.calls += static_cast<double>(proc.count);
      t.timed_calls += static_cast<double>(proc.count - std::min(proc.untimed, proc.count));
    }
  }
  if (rank && ranks_used == 0) {
    throw ReportError(fmt::format("rank {} is not in the profile", *rank));
  }
  return out;
}

// Characters the selection language reads as pattern syntax in a name: wildcards (`*`, `?`,
// TAU's `#`), a parameter list, a quoted entry. It has no escape.
bool has_pattern_syntax(const std::string& name) {
  return name.find_first_of("*?#()\"") != std::string::npos;
}

} // namespace

SelectionSuggestion suggest_selection(const tables::Profile& profile, const SuggestionRule& rule,
                                      std::optional<std::int32_t> rank) {
  const auto& graph = profile.graph;
  SelectionSuggestion suggestion;
  suggestion.rule = rule;
  const auto per_proc = totals(profile, rank, suggestion.ranks);
  const double ranks = std::max(1, suggestion.ranks);

  // Candidates: timed procedures that meet the rule.
  std::map<SiteId, SuggestedProcedure> candidates;
  for (const auto& [proc, t] : per_proc) {
    if (proc >= graph.size()) {
      continue; // the decoder has checked records against the tables; stay safe anyway
    }
    const auto& site = graph.site(proc);
    if (site.kind != SiteKind::Procedure || site.probing != SiteProbing::Timed ||
        t.timed_calls <= 0) {
      continue;
    }
    SuggestedProcedure p{site.name, site.pos, t.calls / ranks, t.time_ns / t.timed_calls};
    if (p.calls_per_rank >= rule.min_calls_per_rank && p.ns_per_call <= rule.max_ns_per_call) {
      candidates.emplace(proc, std::move(p));
    }
  }

  std::map<SiteId, std::string> kept;
  auto keep = [&](SiteId proc, std::string reason) { kept.emplace(proc, std::move(reason)); };
  const auto main = graph.find_main();
  // What each candidate holds: communication statements, calls of timed procedures.
  std::map<SiteId, std::vector<SiteId>> callees;
  for (const auto& site : graph.sites()) {
    if (site.kind != SiteKind::Comm && site.kind != SiteKind::Call) {
      continue;
    }
    const SiteId owner = graph.enclosing_procedure(site.id);
    if (!candidates.contains(owner)) {
      continue;
    }
    if (site.kind == SiteKind::Comm) {
      keep(owner, fmt::format("holds {} at {}:{}", site.name, site.pos.file, site.pos.line));
    } else if (site.symbol.empty()) {
      keep(owner, fmt::format("calls through a pointer at {}:{} (the callee may stay "
                              "instrumented)",
                              site.pos.file, site.pos.line));
    } else if (const SiteId callee = graph.callee_of(site.id);
               callee != tables::kNoSite && callee != owner &&
               graph.site(callee).probing == SiteProbing::Timed) {
      callees[owner].push_back(callee);
    }
  }
  for (const auto& [proc, p] : candidates) {
    if (main && proc == *main) {
      keep(proc, "main");
    } else if (has_pattern_syntax(p.name)) {
      keep(proc, "its name holds a character a selection pattern reads as syntax (*, ?, #, ( or "
                 "\"), with no escape");
    }
  }
  // A name is a pattern for every procedure of that name: all of them go, or none.
  std::map<std::string, std::vector<SiteId>> by_name;
  for (const auto& site : graph.sites()) {
    if (site.kind == SiteKind::Procedure && site.probing != SiteProbing::Folded) {
      by_name[site.name].push_back(site.id);
    }
  }
  auto stays = [&](SiteId proc) { return !candidates.contains(proc) || kept.contains(proc); };
  // Until nothing changes: a candidate calling a procedure that stays instrumented stays too.
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [proc, p] : candidates) {
      if (kept.contains(proc)) {
        continue;
      }
      for (const SiteId other : by_name[p.name]) {
        if (other != proc && stays(other)) {
          const auto& o = graph.site(other);
          keep(proc, fmt::format("{} at {}:{} has the same name and stays instrumented", o.name,
                                 o.pos.file, o.pos.line));
          changed = true;
          break;
        }
      }
      if (kept.contains(proc)) {
        continue;
      }
      for (const SiteId callee : callees[proc]) {
        if (stays(callee)) {
          const auto& c = graph.site(callee);
          keep(proc, fmt::format("calls {} ({}:{}), which stays instrumented", c.name, c.pos.file,
                                 c.pos.line));
          changed = true;
          break;
        }
      }
    }
  }

  for (auto& [proc, p] : candidates) {
    if (const auto it = kept.find(proc); it != kept.end()) {
      suggestion.kept.push_back({std::move(p), it->second});
    } else {
      suggestion.exclude.push_back(std::move(p));
    }
  }
  auto by_calls = [](const SuggestedProcedure& x, const SuggestedProcedure& y) {
    return std::tie(y.calls_per_rank, x.name) < std::tie(x.calls_per_rank, y.name);
  };
  std::stable_sort(suggestion.exclude.begin(), suggestion.exclude.end(), by_calls);
  std::stable_sort(suggestion.kept.begin(), suggestion.kept.end(),
                   [&](const KeptProcedure& x, const KeptProcedure& y) {
                     return by_calls(x.procedure, y.procedure);
                   });
  return suggestion;
}

} // namespace vcmon::report
