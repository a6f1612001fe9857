#include "ReportProfiles.hpp"

#include <stdexcept>

namespace vcmon::report::testing {
namespace {

using tables::SiteKind;

tables::SourcePos at(const char* file, std::uint32_t line) {
  return {file, line, 1};
}

tables::RunMetadata metadata(const char* command, std::int32_t ranks) {
  tables::RunMetadata meta;
  meta.command = command;
  meta.ranks = ranks;
  meta.hosts = {"node1"};
  meta.start_unix_ns = 1'700'000'000'000'000'000;
  meta.end_unix_ns = meta.start_unix_ns + 2'000'000'000;
  meta.clock.source = "tsc";
  return meta;
}

std::uint64_t ns(double base, int rank) {
  return static_cast<std::uint64_t>(base * 1000 * fig12_scale(rank));
}

} // namespace

std::uint32_t context(tables::RankRecords& rec, std::uint32_t parent, tables::SiteId site,
                      std::uint64_t count, std::uint64_t time_ns, std::uint64_t iterations,
                      std::uint64_t sync_delay_ns, std::uint64_t bytes) {
  tables::ContextRecord c;
  c.parent = parent;
  c.site = site;
  c.count = count;
  c.time_ns = time_ns;
  c.iterations = iterations;
  c.sync_delay_ns = sync_delay_ns;
  c.bytes = bytes;
  rec.contexts.push_back(c);
  return static_cast<std::uint32_t>(rec.contexts.size());
}

const tables::Site& site_at(const tables::ProgramGraph& graph, std::uint32_t line) {
  for (const auto& site : graph.sites()) {
    if (site.pos.line == line) {
      return site;
    }
  }
  throw std::logic_error("no site at that line");
}

double fig12_scale(int rank) {
  return 1.0 + rank / 10.0;
}

tables::Profile figure12_profile() {
  tables::Profile profile;
  profile.meta = metadata("./fig12", 4);
  auto& g = profile.graph;
  const char* f = "fig12.c";
  const auto none = tables::kNoSite;
  const auto main_proc = g.add_site(SiteKind::Procedure, at(f, 1), "main", none, "main");
  const auto l2 = g.add_site(SiteKind::Call, at(f, 2), "p1", main_proc, "p1");
  const auto l3 = g.add_site(SiteKind::Call, at(f, 3), "p2", main_proc, "p2");
  const auto p1 = g.add_site(SiteKind::Procedure, at(f, 4), "p1", none, "p1");
  const auto l5 = g.add_site(SiteKind::Call, at(f, 5), "p3", p1, "p3");
  const auto p2 = g.add_site(SiteKind::Procedure, at(f, 6), "p2", none, "p2");
  const auto l7 = g.add_site(SiteKind::Call, at(f, 7), "p3", p2, "p3");
  const auto p3 = g.add_site(SiteKind::Procedure, at(f, 8), "p3", none, "p3");
  const auto e1 = g.add_site(SiteKind::Comm, at(f, 9), "MPI_Send", p3);
  const auto l10 = g.add_site(SiteKind::Call, at(f, 10), "p4", p3, "p4");
  const auto loop1 = g.add_site(SiteKind::Loop, at(f, 11), "loop", p3);
  const auto e2 = g.add_site(SiteKind::Comm, at(f, 12), "MPI_Recv", loop1);
  const auto loop2 = g.add_site(SiteKind::Loop, at(f, 13), "loop", loop1);
  const auto l14 = g.add_site(SiteKind::Call, at(f, 14), "p4", loop2, "p4");
  const auto p4 = g.add_site(SiteKind::Procedure, at(f, 15), "p4", none, "p4");

  for (int r = 0; r < 4; ++r) {
    tables::RankRecords rec;
    rec.rank = r;
    rec.host = "node1";
    rec.virtual_ns = ns(kFig12Main + 15, r);
    rec.real_ns = rec.virtual_ns + 40'000;
    rec.intrusion_ns = 40'000;
    rec.counters.probe_events = 500;
    rec.procs = {{main_proc, none, ns(kFig12Main, r), 1},
                 {p1, l2, ns(kFig12P1, r), 1},
                 {p2, l3, ns(kFig12P2, r), 1},
                 {p3, l5, ns(kFig12P3ViaP1, r), 1},
                 {p3, l7, ns(kFig12P3ViaP2, r), 1},
                 {p4, l10, ns(kFig12P4Direct, r), 2},
                 {p4, l14, ns(kFig12P4InLoop, r), 200}};
    rec.loops = {{loop1, ns(kFig12Loop1, r), 2, 20}, {loop2, ns(kFig12Loop2, r), 20, 200}};
    // e1 sends to the next rank, e2 receives from the previous one.
    rec.coms = {{e1, (r + 1) % 4, ns(kFig12E1 / 2, r), ns(kFig12E1 / 2, r), 2, 2048},
                {e2, (r + 3) % 4, ns(kFig12E2 / 4, r), ns(3 * kFig12E2 / 4, r), 20, 20 * 512}};
    profile.ranks.push_back(rec);
  }
  return profile;
}

tables::Profile figure12_frequent_p4(std::uint64_t calls) {
  tables::Profile profile = figure12_profile();
  for (auto& rank : profile.ranks) {
    for (auto& proc : rank.procs) {
      // p4's activations by the call in loop2 (fig12.c:14).
      if (proc.call_site != tables::kNoSite && profile.graph.site(proc.call_site).pos.line == 14) {
        proc.count = calls;
      }
    }
  }
  return profile;
}

tables::Profile figure12_context_profile() {
  tables::Profile profile = figure12_profile();
  const auto& g = profile.graph;
  auto id = [&](std::uint32_t line) { return site_at(g, line).id; };
  for (auto& rec : profile.ranks) {
    const int r = rec.rank;
    // Per-site records, found by site and call site.
    auto proc = [&](std::uint32_t line, std::uint32_t call_line) {
      for (const auto& p : rec.procs) {
        if (p.proc == id(line) &&
            (call_line == 0 ? p.call_site == tables::kNoSite : p.call_site == id(call_line))) {
          return p;
        }
      }
      throw std::logic_error("no such proc record");
    };
    auto loop = [&](std::uint32_t line) {
      for (const auto& l : rec.loops) {
        if (l.loop == id(line)) {
          return l;
        }
      }
      throw std::logic_error("no such loop record");
    };
    auto com = [&](std::uint32_t line) {
      for (const auto& c : rec.coms) {
        if (c.comm == id(line)) {
          return c;
        }
      }
      throw std::logic_error("no such com record");
    };
    const auto main_ctx = context(rec, 0, id(1), 1, proc(1, 0).time_ns);
    // p3's sites, p1's part first (`first` true) then p2's, which is the rest of the record.
    auto p3_contexts = [&](std::uint32_t p3_ctx, bool first) {
      auto part = [&](std::uint64_t whole, double via_p1) {
        return first ? ns(via_p1, r) : whole - ns(via_p1, r);
      };
      auto half = [&](std::uint64_t whole) { return first ? whole / 2 : whole - whole / 2; };
      const auto e1 = com(9);
      context(rec, p3_ctx, id(9), half(e1.count), half(e1.transmission_ns), 0,
              half(e1.sync_delay_ns), half(e1.bytes));
      const auto direct = context(rec, p3_ctx, id(10), 1);
      context(rec, direct, id(15), 1, part(proc(15, 10).time_ns, kFig12CtxP4DirectViaP1));
      const auto l1 = loop(11);
      const auto loop1 = context(rec, p3_ctx, id(11), 1, part(l1.time_ns, kFig12CtxLoop1ViaP1),
                                 half(l1.iterations));
      const auto e2 = com(12);
      context(rec, loop1, id(12), half(e2.count), half(e2.transmission_ns), 0,
              half(e2.sync_delay_ns), half(e2.bytes));
      const auto l2 = loop(13);
      const auto loop2 = context(rec, loop1, id(13), half(l2.count),
                                 part(l2.time_ns, kFig12CtxLoop2ViaP1), half(l2.iterations));
      const auto in_loop = context(rec, loop2, id(14), half(proc(15, 14).count));
      context(rec, in_loop, id(15), half(proc(15, 14).count),
              part(proc(15, 14).time_ns, kFig12CtxP4InLoopViaP1));
    };
    const auto to_p1 = context(rec, main_ctx, id(2), 1);
    const auto p1 = context(rec, to_p1, id(4), 1, proc(4, 2).time_ns);
    const auto p1_to_p3 = context(rec, p1, id(5), 1);
    p3_contexts(context(rec, p1_to_p3, id(8), 1, proc(8, 5).time_ns), true);
    const auto to_p2 = context(rec, main_ctx, id(3), 1);
    const auto p2 = context(rec, to_p2, id(6), 1, proc(6, 3).time_ns);
    const auto p2_to_p3 = context(rec, p2, id(7), 1);
    p3_contexts(context(rec, p2_to_p3, id(8), 1, proc(8, 7).time_ns), false);
  }
  return profile;
}

tables::Profile two_callers_profile(bool contexts) {
  tables::Profile profile;
  profile.meta = metadata("./work", 3);
  auto& g = profile.graph;
  const char* f = "work.c";
  const auto none = tables::kNoSite;
  const auto main_proc = g.add_site(SiteKind::Procedure, at(f, 1), "main", none, "main");
  const auto heavy = g.add_site(SiteKind::Call, at(f, 2), "work", main_proc, "work");
  const auto light = g.add_site(SiteKind::Call, at(f, 3), "work", main_proc, "work");
  const auto barrier = g.add_site(SiteKind::Comm, at(f, 4), "MPI_Barrier", main_proc);
  const auto work = g.add_site(SiteKind::Procedure, at(f, 5), "work", none, "work");
  const auto loop = g.add_site(SiteKind::Loop, at(f, 6), "for", work);
  const auto reduce = g.add_site(SiteKind::Comm, at(f, 7), "MPI_Allreduce", loop);
  const auto n = kWorkIterations;
  const auto collective = tables::ComRecord::kCollective;
  for (int r = 0; r < 3; ++r) {
    const auto us = [&](double base) { return static_cast<std::uint64_t>(base * 1000 * (1 + r)); };
    tables::RankRecords rec;
    rec.rank = r;
    rec.host = "node1";
    rec.virtual_ns = us(1200);
    rec.real_ns = rec.virtual_ns;
    // The loop is 90 % of work, the reduction 10 % of the loop (half of it waiting).
    const std::uint64_t t_heavy = us(kWorkHeavy), t_light = us(kWorkLight);
    const std::uint64_t loop_heavy = t_heavy * 9 / 10, loop_light = t_light * 9 / 10;
    const std::uint64_t red_heavy = loop_heavy / 20, red_light = loop_light / 20;
    rec.procs = {
        {main_proc, none, us(1150), 1}, {work, heavy, t_heavy, 1}, {work, light, t_light, 1}};
    rec.loops = {{loop, loop_heavy + loop_light, 2, 11 * n}};
    rec.coms = {
        {barrier, collective, us(10), us(20), 1, 0},
        {reduce, collective, red_heavy + red_light, red_heavy + red_light, 11 * n, 11 * n * 8}};
    if (contexts) {
      const auto m = context(rec, 0, main_proc, 1, us(1150));
      // Rank 2 lists the light call first: contexts merge by path, not by position.
      auto branch = [&](tables::SiteId call, std::uint64_t time, std::uint64_t loop_time,
                        std::uint64_t red, std::uint64_t iterations) {
        const auto w = context(rec, context(rec, m, call, 1), work, 1, time);
        const auto l = context(rec, w, loop, 1, loop_time, iterations);
        context(rec, l, reduce, iterations, red, 0, red, iterations * 8);
      };
      if (r == 2) {
        branch(light, t_light, loop_light, red_light, n);
        branch(heavy, t_heavy, loop_heavy, red_heavy, 10 * n);
      } else {
        branch(heavy, t_heavy, loop_heavy, red_heavy, 10 * n);
        branch(light, t_light, loop_light, red_light, n);
      }
      context(rec, m, barrier, 1, us(10), 0, us(20), 0);
    }
    profile.ranks.push_back(rec);
  }
  return profile;
}

tables::Profile factorial_profile() {
  tables::Profile profile;
  profile.meta = metadata("./fact 10", 1);
  auto& g = profile.graph;
  const char* f = "fact.c";
  const auto none = tables::kNoSite;
  const auto main_proc = g.add_site(SiteKind::Procedure, at(f, 1), "main", none, "main");
  const auto outer = g.add_site(SiteKind::Call, at(f, 2), "fact", main_proc, "fact");
  const auto fact = g.add_site(SiteKind::Procedure, at(f, 3), "fact", none, "fact");
  const auto inner = g.add_site(SiteKind::Call, at(f, 4), "fact", fact, "fact");
  const auto send = g.add_site(SiteKind::Comm, at(f, 5), "MPI_Bcast", fact);

  tables::RankRecords rec;
  rec.virtual_ns = 1000;
  rec.real_ns = 1100;
  rec.intrusion_ns = 100;
  // The inner activations' time lies inside the outer one: adding it would count it twice.
  rec.procs = {{main_proc, none, 1000, 1}, {fact, outer, 900, 1}, {fact, inner, 800, 9}};
  rec.coms = {{send, tables::ComRecord::kCollective, 60, 40, 10, 80}};
  profile.ranks.push_back(rec);
  return profile;
}

tables::Profile even_odd_profile() {
  tables::Profile profile;
  profile.meta = metadata("./parity 9", 1);
  auto& g = profile.graph;
  const char* f = "parity.c";
  const auto none = tables::kNoSite;
  const auto main_proc = g.add_site(SiteKind::Procedure, at(f, 1), "main", none, "main");
  const auto entry = g.add_site(SiteKind::Call, at(f, 2), "is_even", main_proc, "is_even");
  const auto even = g.add_site(SiteKind::Procedure, at(f, 3), "is_even", none, "is_even");
  const auto to_odd = g.add_site(SiteKind::Call, at(f, 4), "is_odd", even, "is_odd");
  const auto odd = g.add_site(SiteKind::Procedure, at(f, 5), "is_odd", none, "is_odd");
  const auto to_even = g.add_site(SiteKind::Call, at(f, 6), "is_even", odd, "is_even");
  const auto barrier = g.add_site(SiteKind::Comm, at(f, 7), "MPI_Barrier", odd);

  tables::RankRecords rec;
  rec.virtual_ns = 1000;
  rec.real_ns = 1000;
  rec.procs = {{main_proc, none, 1000, 1},
               {even, entry, 800, 1},
               {odd, to_odd, 700, 5},
               {even, to_even, 600, 4}};
  rec.coms = {{barrier, tables::ComRecord::kCollective, 20, 30, 5, 0}};
  profile.ranks.push_back(rec);
  return profile;
}

tables::Profile triangle_profile() {
  tables::Profile profile;
  profile.meta = metadata("./cycle", 1);
  auto& g = profile.graph;
  const char* f = "cycle.c";
  const auto none = tables::kNoSite;
  const auto main_proc = g.add_site(SiteKind::Procedure, at(f, 1), "main", none, "main");
  const auto entry = g.add_site(SiteKind::Call, at(f, 2), "a", main_proc, "a");
  const auto a = g.add_site(SiteKind::Procedure, at(f, 3), "a", none, "a");
  const auto a_to_b = g.add_site(SiteKind::Call, at(f, 4), "b", a, "b");
  const auto a_to_c = g.add_site(SiteKind::Call, at(f, 5), "c", a, "c");
  const auto b = g.add_site(SiteKind::Procedure, at(f, 6), "b", none, "b");
  const auto b_to_c = g.add_site(SiteKind::Call, at(f, 7), "c", b, "c");
  const auto c = g.add_site(SiteKind::Procedure, at(f, 8), "c", none, "c");
  const auto c_to_a = g.add_site(SiteKind::Call, at(f, 9), "a", c, "a");
  const auto loop = g.add_site(SiteKind::Loop, at(f, 10), "loop", c);

  tables::RankRecords rec;
  rec.virtual_ns = 1000;
  rec.real_ns = 1000;
  rec.procs = {{main_proc, none, 1000, 1}, {a, entry, 900, 1},  {b, a_to_b, 500, 3},
               {c, a_to_c, 300, 2},        {c, b_to_c, 400, 3}, {a, c_to_a, 600, 4}};
  rec.loops = {{loop, 200, 5, 50}};
  profile.ranks.push_back(rec);
  return profile;
}

tables::Profile ring_profile(std::int32_t ranks) {
  tables::Profile profile;
  profile.meta = metadata("./ring", ranks);
  auto& g = profile.graph;
  const auto main_proc =
      g.add_site(SiteKind::Procedure, at("ring.c", 1), "main", tables::kNoSite, "main");
  const auto send = g.add_site(SiteKind::Comm, at("ring.c", 2), "MPI_Send", main_proc);
  for (std::int32_t r = 0; r < ranks; ++r) {
    tables::RankRecords rec;
    rec.rank = r;
    rec.host = "node1";
    const auto weight = static_cast<std::uint64_t>(r + 1);
    rec.virtual_ns = 2'000'000 + 1'000 * weight;
    rec.real_ns = rec.virtual_ns;
    rec.procs = {{main_proc, tables::kNoSite, rec.virtual_ns, 1}};
    rec.coms = {{send, (r + 1) % ranks, 1'000 * weight, 0, 10, 100 * weight}};
    profile.ranks.push_back(rec);
  }
  return profile;
}

} // namespace vcmon::report::testing
