#include "query/Snapshot.hpp"

using vcmon::tables::SiteKind;

namespace {

void add_communication(vcmon_totals& into, const vcmon_totals& from) {
  into.transmission_ns += from.transmission_ns;
  into.sync_delay_ns += from.sync_delay_ns;
  into.messages += from.messages;
  into.bytes += from.bytes;
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
      view.totals.messages += com.messages();
      view.totals.bytes += com.bytes;
    }
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
