#include "ReportProfiles.hpp"

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

} // namespace vcmon::report::testing
