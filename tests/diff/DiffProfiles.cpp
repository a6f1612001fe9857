#include "DiffProfiles.hpp"

#include "ReportProfiles.hpp"

#include <stdexcept>

namespace vcmon::report::testing {
namespace {

tables::SiteId site_at(const tables::Profile& profile, tables::SiteKind kind, std::uint32_t line) {
  for (const auto& site : profile.graph.sites()) {
    if (site.kind == kind && site.pos.line == line) {
      return site.id;
    }
  }
  throw std::logic_error("no such site in figure 12");
}

tables::ProcRecord& proc(tables::RankRecords& rec, tables::SiteId p, tables::SiteId call) {
  for (auto& r : rec.procs) {
    if (r.proc == p && r.call_site == call) {
      return r;
    }
  }
  throw std::logic_error("no such proc record");
}

tables::LoopRecord& loop(tables::RankRecords& rec, tables::SiteId l) {
  for (auto& r : rec.loops) {
    if (r.loop == l) {
      return r;
    }
  }
  throw std::logic_error("no such loop record");
}

} // namespace

tables::Profile figure12_slow_p4(double factor) {
  using tables::SiteKind;
  tables::Profile profile = figure12_profile();
  const auto at = [&](SiteKind kind, std::uint32_t line) { return site_at(profile, kind, line); };
  const auto main_proc = at(SiteKind::Procedure, 1), p1 = at(SiteKind::Procedure, 4),
             p2 = at(SiteKind::Procedure, 6), p3 = at(SiteKind::Procedure, 8),
             p4 = at(SiteKind::Procedure, 15), l2 = at(SiteKind::Call, 2),
             l3 = at(SiteKind::Call, 3), l5 = at(SiteKind::Call, 5), l7 = at(SiteKind::Call, 7),
             l10 = at(SiteKind::Call, 10), l14 = at(SiteKind::Call, 14),
             loop1 = at(SiteKind::Loop, 11), loop2 = at(SiteKind::Loop, 13);
  for (auto& rec : profile.ranks) {
    auto grow = [factor](tables::ProcRecord& r) {
      const auto before = r.time_ns;
      r.time_ns = static_cast<std::uint64_t>(static_cast<double>(before) * factor);
      return r.time_ns - before;
    };
    const std::uint64_t in_loop = grow(proc(rec, p4, l14));
    const std::uint64_t direct = grow(proc(rec, p4, l10));
    loop(rec, loop2).time_ns += in_loop;
    loop(rec, loop1).time_ns += in_loop;
    const std::uint64_t total = in_loop + direct;
    const std::uint64_t via_p1 = total * 3 / 8, via_p2 = total - via_p1;
    proc(rec, p3, l5).time_ns += via_p1;
    proc(rec, p1, l2).time_ns += via_p1;
    proc(rec, p3, l7).time_ns += via_p2;
    proc(rec, p2, l3).time_ns += via_p2;
    proc(rec, main_proc, tables::kNoSite).time_ns += total;
    rec.virtual_ns += total;
    rec.real_ns += total;
  }
  return profile;
}

tables::Profile figure12_with_p5(double p5_us) {
  using tables::SiteKind;
  tables::Profile profile = figure12_profile();
  const auto main_proc = site_at(profile, SiteKind::Procedure, 1);
  auto& g = profile.graph;
  const auto call = g.add_site(SiteKind::Call, {"fig12.c", 16, 1}, "p5", main_proc, "p5");
  const auto p5 = g.add_site(SiteKind::Procedure, {"fig12.c", 20, 1}, "p5", tables::kNoSite, "p5");
  const auto ns = static_cast<std::uint64_t>(p5_us * 1000);
  for (auto& rec : profile.ranks) {
    rec.procs.push_back({p5, call, ns, 1});
    proc(rec, main_proc, tables::kNoSite).time_ns += ns;
    rec.virtual_ns += ns;
    rec.real_ns += ns;
  }
  return profile;
}

tables::Profile renumbered(const tables::Profile& profile) {
  tables::Profile out = profile;
  out.graph = {};
  out.graph.add_site(tables::SiteKind::Procedure, {"other.c", 1, 1}, "unused", tables::kNoSite,
                     "unused");
  const auto shift = [](tables::SiteId id) { return id == tables::kNoSite ? id : id + 1; };
  for (const auto& site : profile.graph.sites()) {
    out.graph.add_site(site.kind, site.pos, site.name, shift(site.parent), site.symbol,
                       site.probing);
  }
  for (auto& rec : out.ranks) {
    for (auto& r : rec.procs) {
      r.proc = shift(r.proc);
      r.call_site = shift(r.call_site);
    }
    for (auto& r : rec.loops) {
      r.loop = shift(r.loop);
    }
    for (auto& r : rec.coms) {
      r.comm = shift(r.comm);
    }
  }
  return out;
}

tables::Profile figure12_ranks(std::int32_t ranks) {
  tables::Profile profile = figure12_profile();
  profile.ranks.resize(static_cast<std::size_t>(ranks));
  profile.meta.ranks = ranks;
  for (auto& rec : profile.ranks) {
    for (auto& r : rec.coms) {
      r.partner = r.partner < 0 ? r.partner : r.partner % ranks;
    }
  }
  return profile;
}

} // namespace vcmon::report::testing
