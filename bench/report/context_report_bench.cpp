// Writes a synthetic profile of many ranks, each with many calling contexts, for the report's
// context benchmark (bench/report/context_report.sh, docs/evaluation.md, "Reports of calling
// contexts"):
//   bench_report_contexts DIR RANKS CONTEXTS   writes DIR/contexts.vcmon
// The program: main and 400 procedures, each with a loop holding an MPI_Allreduce and four
// calls of later procedures, so procedures are reached along many paths. Every rank walks the
// same paths breadth first from main until it has CONTEXTS contexts, with values that differ by
// rank; its per-site records are what its contexts sum to. The file is written as the runtime
// writes it (head, rank index, each rank's records at its offset), a rank at a time.
#include "vcmon/tables/ProfileParts.hpp"
#include "vcmon/tables/WholeFile.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace vcmon::tables;

constexpr std::uint32_t kProcedures = 400;
constexpr std::uint32_t kCallsPerProcedure = 4;

struct Program {
  ProgramGraph graph;
  SiteId main_proc = kNoSite;
  std::vector<SiteId> main_calls;
  std::vector<SiteId> procs, loops;       // loops[i]: procs[i]'s
  std::vector<std::vector<SiteId>> calls; // per procedure
  std::map<SiteId, SiteId> callee;        // call site -> procedure
  std::map<SiteId, SiteId> loop_comm;     // loop -> its statement
};

Program make_program() {
  Program p;
  auto& g = p.graph;
  auto pos = [](std::uint32_t file, std::uint32_t line) {
    return SourcePos{"unit" + std::to_string(file) + ".c", line, 1};
  };
  p.main_proc = g.add_site(SiteKind::Procedure, pos(0, 1), "main", kNoSite, "main");
  for (std::uint32_t i = 0; i < kProcedures; ++i) {
    const std::string name = "f" + std::to_string(i);
    p.procs.push_back(
        g.add_site(SiteKind::Procedure, pos(1 + i / 50, 10 * i), name, kNoSite, name));
  }
  auto add_call = [&](SiteId scope, std::uint32_t line, std::uint32_t target) {
    const std::string name = "f" + std::to_string(target);
    const SiteId call = g.add_site(SiteKind::Call, pos(0, line), name, scope, name);
    p.callee[call] = p.procs[target];
    return call;
  };
  for (std::uint32_t j = 0; j < kCallsPerProcedure; ++j) {
    p.main_calls.push_back(add_call(p.main_proc, 2 + j, j));
  }
  p.calls.resize(kProcedures);
  for (std::uint32_t i = 0; i < kProcedures; ++i) {
    const SiteId loop = g.add_site(SiteKind::Loop, pos(1 + i / 50, 10 * i + 1), "for", p.procs[i]);
    p.loops.push_back(loop);
    p.loop_comm[loop] =
        g.add_site(SiteKind::Comm, pos(1 + i / 50, 10 * i + 2), "MPI_Allreduce", loop);
    for (std::uint32_t j = 0; j < kCallsPerProcedure; ++j) {
      // Later procedures only: no recursion, and many paths to each.
      const std::uint32_t target = i + 1 + (i * 7 + j * 13) % 40;
      if (target < kProcedures) {
        p.calls[i].push_back(add_call(p.procs[i], 10 * i + 3 + j, target));
      }
    }
  }
  return p;
}

std::uint64_t mix(std::uint64_t x) { // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

RankRecords make_rank(const Program& p, std::int32_t rank, std::size_t contexts) {
  RankRecords r;
  r.rank = rank;
  r.host = "node" + std::to_string(rank / 32);
  const auto& g = p.graph;
  // Breadth first from main: parents come before their children.
  std::deque<std::uint32_t> open;
  auto add = [&](std::uint32_t parent, SiteId site) {
    if (r.contexts.size() >= contexts) {
      return;
    }
    ContextRecord c;
    c.parent = parent;
    c.site = site;
    const std::uint64_t h = mix(r.contexts.size() * 1024 + static_cast<std::uint64_t>(rank));
    c.count = 1 + h % 200;
    c.time_ns = 1000 + (h >> 12) % 2'000'000;
    if (g.site(site).kind == SiteKind::Loop) {
      c.iterations = c.count * (1 + (h >> 40) % 50);
    } else if (g.site(site).kind == SiteKind::Comm) {
      c.sync_delay_ns = (h >> 32) % 500'000;
      c.bytes = c.count * 8;
    }
    r.contexts.push_back(c);
    open.push_back(static_cast<std::uint32_t>(r.contexts.size()));
  };
  add(0, p.main_proc);
  while (!open.empty() && r.contexts.size() < contexts) {
    const std::uint32_t at = open.front();
    open.pop_front();
    const SiteId site = r.contexts[at - 1].site;
    switch (g.site(site).kind) {
    case SiteKind::Procedure: {
      const auto& calls = site == p.main_proc ? p.main_calls : p.calls[site - p.procs.front()];
      if (site != p.main_proc) {
        add(at, p.loops[site - p.procs.front()]);
      }
      for (const SiteId call : calls) {
        add(at, call);
      }
      break;
    }
    case SiteKind::Loop:
      add(at, p.loop_comm.at(site));
      break;
    case SiteKind::Call:
      add(at, p.callee.at(site));
      break;
    case SiteKind::Comm:
      break;
    }
  }
  // The per-site records: what the contexts sum to.
  std::map<std::pair<SiteId, SiteId>, ProcRecord> procs;
  std::map<SiteId, LoopRecord> loops;
  std::map<SiteId, ComRecord> coms;
  for (const ContextRecord& c : r.contexts) {
    switch (g.site(c.site).kind) {
    case SiteKind::Procedure: {
      const SiteId call = c.parent == 0 ? kNoSite : r.contexts[c.parent - 1].site;
      ProcRecord& rec = procs[{c.site, call}];
      rec.proc = c.site;
      rec.call_site = call;
      rec.count += c.count;
      rec.time_ns += c.time_ns;
      break;
    }
    case SiteKind::Loop: {
      LoopRecord& rec = loops[c.site];
      rec.loop = c.site;
      rec.count += c.count;
      rec.time_ns += c.time_ns;
      rec.iterations += c.iterations;
      break;
    }
    case SiteKind::Comm: {
      ComRecord& rec = coms[c.site];
      rec.comm = c.site;
      rec.count += c.count;
      rec.transmission_ns += c.time_ns;
      rec.sync_delay_ns += c.sync_delay_ns;
      rec.bytes += c.bytes;
      rec.sizes.min_bytes = rec.sizes.max_bytes = 8;
      rec.sizes.classes[size_class(8)] += c.count;
      break;
    }
    case SiteKind::Call:
      break;
    }
  }
  for (const auto& [key, rec] : procs) {
    r.procs.push_back(rec);
  }
  for (const auto& [key, rec] : loops) {
    r.loops.push_back(rec);
  }
  for (const auto& [key, rec] : coms) {
    r.coms.push_back(rec);
  }
  r.virtual_ns = r.contexts.front().time_ns;
  r.real_ns = r.virtual_ns;
  return r;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s DIR RANKS CONTEXTS\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const std::int32_t ranks = std::atoi(argv[2]);
  const auto contexts = static_cast<std::size_t>(std::atol(argv[3]));
  try {
    const auto start = std::chrono::steady_clock::now();
    const Program program = make_program();
    RunMetadata meta;
    meta.command = "synthetic-contexts";
    meta.ranks = ranks;
    meta.hosts = {"node0"};
    meta.activation_depth = 256;
    std::vector<RankSectionSize> sections;
    for (std::int32_t r = 0; r < ranks; ++r) {
      sections.push_back(
          rank_section_size(r, encode_rank_records(make_rank(program, r, contexts))));
    }
    const auto path = dir / "contexts.vcmon";
    IncompleteFile file(path, "profile");
    const std::vector<std::byte> head = encode_profile_head(meta, program.graph);
    const std::vector<std::byte> index = encode_rank_index(head.size(), sections);
    file.write_at(0, head);
    file.write_at(head.size(), index);
    std::uint64_t offset = head.size() + index.size();
    for (std::int32_t r = 0; r < ranks; ++r) {
      const auto encoded = encode_rank_records(make_rank(program, r, contexts));
      file.write_at(offset, encoded);
      offset += encoded.size();
    }
    file.finish();
    file.name_replacing(path);
    std::printf("wrote %s: %d ranks x %zu contexts, %zu sites, %.0f MB in %.1f s\n", path.c_str(),
                ranks, contexts, program.graph.size(), static_cast<double>(offset) / 1e6,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
  return 0;
}
