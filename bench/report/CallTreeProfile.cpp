#include "CallTreeProfile.hpp"

#include <random>
#include <string>

namespace vcmon::report::bench {
namespace {

using tables::SiteId;
using tables::SiteKind;

struct Procedure {
  SiteId proc, calls[3], outer, inner, send, recv, allreduce, isend;
};

constexpr int kCalls = 3;
constexpr int kIsendPartners = 4;

} // namespace

tables::Profile make_call_tree_profile(std::int32_t ranks, std::size_t sites, std::uint64_t seed) {
  tables::Profile profile;
  profile.meta.command = "mpiexec -n " + std::to_string(ranks) + " ./solver --grid 8192";
  profile.meta.ranks = ranks;
  for (std::int32_t node = 0; node * 32 < ranks; ++node) {
    profile.meta.hosts.push_back("node" + std::to_string(node));
  }
  profile.meta.start_unix_ns = 1'750'000'000'000'000'000;
  profile.meta.end_unix_ns = profile.meta.start_unix_ns + 60'000'000'000;
  profile.meta.clock.source = "tsc";

  const std::size_t count = sites / 10;
  auto name = [](std::size_t k) {
    return k == 0 ? std::string("main") : "solve" + std::to_string(k);
  };
  auto& g = profile.graph;
  std::vector<Procedure> procs(count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::string file = "src/module" + std::to_string(k % 40) + ".c";
    std::uint32_t line = static_cast<std::uint32_t>(1 + 20 * (k / 40));
    auto at = [&] { return tables::SourcePos{file, line++, 1}; };
    Procedure& p = procs[k];
    p.proc = g.add_site(SiteKind::Procedure, at(), name(k), tables::kNoSite, name(k));
    p.outer = g.add_site(SiteKind::Loop, at(), "for", p.proc);
    p.inner = g.add_site(SiteKind::Loop, at(), "for", p.outer);
    for (int c = 0; c < kCalls; ++c) {
      // Calls beyond the last procedure go to a library the monitor does not see.
      const std::size_t callee = kCalls * k + 1 + static_cast<std::size_t>(c);
      const bool known = callee < count;
      p.calls[c] = g.add_site(SiteKind::Call, at(), known ? name(callee) : "dgemm_", p.inner,
                              known ? name(callee) : std::string());
    }
    p.send = g.add_site(SiteKind::Comm, at(), "MPI_Send", p.inner);
    p.recv = g.add_site(SiteKind::Comm, at(), "MPI_Recv", p.inner);
    p.allreduce = g.add_site(SiteKind::Comm, at(), "MPI_Allreduce", p.outer);
    p.isend = g.add_site(SiteKind::Comm, at(), "MPI_Isend", p.proc);
  }

  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> jitter(0.8, 1.2);
  for (std::int32_t rank = 0; rank < ranks; ++rank) {
    tables::RankRecords rec;
    rec.rank = rank;
    rec.host = profile.meta.hosts[static_cast<std::size_t>(rank / 32)];
    const double imbalance = 1.0 + 0.3 * static_cast<double>(rank % 7) / 7.0;
    // Bottom-up, so that each procedure's time holds its callees' and statements' time.
    std::vector<std::uint64_t> inclusive(count, 0);
    for (std::size_t k = count; k-- > 0;) {
      const Procedure& p = procs[k];
      auto ns = [&](double base) {
        return static_cast<std::uint64_t>(base * imbalance * jitter(random));
      };
      const std::uint64_t transfer = ns(2e5), wait = ns(1e5), reduce = ns(3e5);
      rec.coms.push_back({p.send, (rank + 1) % ranks, transfer, wait, 100, 100 * 8192});
      rec.coms.push_back(
          {p.recv, (rank + ranks - 1) % ranks, transfer / 2, wait * 3, 100, 100 * 8192});
      rec.coms.push_back({p.allreduce, tables::ComRecord::kCollective, reduce / 3, reduce, 10, 80});
      std::uint64_t isend = 0;
      for (std::int32_t d = 1; d <= kIsendPartners; ++d) {
        const std::uint64_t t = ns(1e4);
        isend += t;
        rec.coms.push_back({p.isend, (rank + d * 17) % ranks, t, 0, 10, 10 * 1024});
      }
      std::uint64_t callees = 0;
      for (int c = 0; c < kCalls; ++c) {
        const std::size_t callee = kCalls * k + 1 + static_cast<std::size_t>(c);
        if (callee < count) {
          rec.procs.push_back({procs[callee].proc, p.calls[c], inclusive[callee], 10});
          callees += inclusive[callee];
        }
      }
      const std::uint64_t inner = ns(5e5) + callees + transfer + wait + transfer / 2 + wait * 3;
      const std::uint64_t outer = inner + ns(1e5) + reduce / 3 + reduce;
      rec.loops.push_back({p.outer, outer, 1, 10});
      rec.loops.push_back({p.inner, inner, 10, 1000});
      inclusive[k] = outer + isend + ns(5e4);
    }
    rec.procs.push_back({procs[0].proc, tables::kNoSite, inclusive[0], 1});
    rec.virtual_ns = inclusive[0] + 1'000'000;
    rec.real_ns = rec.virtual_ns + rec.virtual_ns / 50;
    rec.intrusion_ns = rec.real_ns - rec.virtual_ns;
    rec.counters.probe_events = 2 * sites * 1000;
    profile.ranks.push_back(std::move(rec));
  }
  return profile;
}

} // namespace vcmon::report::bench
