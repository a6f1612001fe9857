#include "query/Snapshot.hpp"

using vcmon::tables::SiteKind;

namespace {

void add_communication(vcmon_totals& into, const vcmon_totals& from) {
  into.transmission_ns += from.transmission_ns;
  into.sync_delay_ns += from.sync_delay_ns;
  into.messages += from.messages;
  into.bytes += from.bytes;
}

// The C view of a rank's contexts and, for walking them, each context's children.
void add_contexts(vcmon_snapshot::RankView& view,
                  const std::vector<vcmon::tables::ContextRecord>& contexts) {
  view.contexts.reserve(contexts.size());
  // Grouped by the record's parent field (0: the top, k + 1: under context k), in list order.
  view.child_begin.assign(contexts.size() + 2, 0);
  for (const vcmon::tables::ContextRecord& c : contexts) {
    view.contexts.push_back({c.parent == 0 ? VCMON_NO_CONTEXT : c.parent - std::size_t{1}, c.site,
                             c.count, c.time_ns, c.untimed, c.iterations, c.sync_delay_ns, c.bytes,
                             c.folded});
    ++view.child_begin[c.parent + 1];
  }
  for (std::size_t g = 1; g < view.child_begin.size(); ++g) {
    view.child_begin[g] += view.child_begin[g - 1];
  }
  std::vector<std::size_t> next(view.child_begin.begin(), view.child_begin.end() - 1);
  view.context_children.resize(contexts.size());
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    view.context_children[next[contexts[i].parent]++] = i;
  }
}

} // namespace

vcmon_snapshot::vcmon_snapshot(vcmon::tables::Profile p) : profile(std::move(p)) {
  const vcmon::tables::RankRecords* longest = nullptr;
  for (const vcmon::tables::RankRecords& r : profile.ranks) {
    RankView view;
    view.totals.virtual_ns = r.virtual_ns;
    view.totals.real_ns = r.real_ns;
    view.totals.intrusion_ns = r.intrusion_ns;
    for (const auto& proc : r.procs) {
      view.procs.push_back({proc.proc, proc.call_site, proc.time_ns, proc.count});
    }
    for (const auto& loop : r.loops) {
      view.loops.push_back({loop.loop, loop.time_ns, loop.count, loop.iterations});
    }
    for (const auto& com : r.coms) {
      view.coms.push_back(
          {com.comm, com.partner, com.transmission_ns, com.sync_delay_ns, com.count, com.bytes});
      view.totals.transmission_ns += com.transmission_ns;
      view.totals.sync_delay_ns += com.sync_delay_ns;
      view.totals.messages += com.sizes.messages();
      view.totals.bytes += com.bytes;
    }
    add_contexts(view, r.contexts);
    add_communication(job_totals, view.totals);
    if (longest == nullptr || r.virtual_ns > longest->virtual_ns) {
      longest = &r;
    }
    ranks.push_back(std::move(view));
  }
  if (longest != nullptr) {
    job_totals.virtual_ns = longest->virtual_ns;
    job_totals.real_ns = longest->real_ns;
    job_totals.intrusion_ns = longest->intrusion_ns;
  }
  children.resize(profile.graph.size());
  for (const vcmon::tables::Site& site : profile.graph.sites()) {
    if (site.parent < children.size()) {
      children[site.parent].push_back(site.id);
    }
  }
}

std::uint64_t vcmon_snapshot::site_time(const RankView& rank, unsigned site) const {
  const SiteKind kind = profile.graph.site(site).kind;
  std::uint64_t time = 0;
  switch (kind) {
  case SiteKind::Procedure:
  case SiteKind::Call:
    for (const vcmon_proc_record& r : rank.procs) {
      if ((kind == SiteKind::Procedure ? r.proc : r.call_site) == site) {
        time += r.time_ns;
      }
    }
    break;
  case SiteKind::Loop:
    for (const vcmon_loop_record& r : rank.loops) {
      time += r.loop == site ? r.time_ns : 0;
    }
    break;
  case SiteKind::Comm:
    for (const vcmon_com_record& r : rank.coms) {
      time += r.comm == site ? r.transmission_ns + r.sync_delay_ns : 0;
    }
    break;
  }
  return time;
}

std::uint64_t vcmon_snapshot::context_time(const RankView& rank, std::size_t context) const {
  const vcmon_context_record& c = rank.contexts[context];
  switch (profile.graph.site(c.site).kind) {
  case SiteKind::Procedure:
  case SiteKind::Loop:
    return c.time_ns;
  case SiteKind::Comm:
    return c.time_ns + c.sync_delay_ns;
  case SiteKind::Call:
    break;
  }
  std::uint64_t time = 0;
  for (std::size_t k = rank.child_begin[context + 1]; k < rank.child_begin[context + 2]; ++k) {
    time += context_time(rank, rank.context_children[k]);
  }
  return time;
}
