#include "SyntheticProfile.hpp"

#include <random>
#include <string>

namespace vcmon::tables::testing {
namespace {

class Generator {
public:
  explicit Generator(std::uint64_t seed) : random_(seed) {}

  std::uint64_t below(std::uint64_t bound) {
    return std::uniform_int_distribution<std::uint64_t>(0, bound - 1)(random_);
  }
  // Values spread over many magnitudes, as times and counts are.
  std::uint64_t magnitude(int max_bits) {
    return below(std::uint64_t{1} << below(static_cast<std::uint64_t>(max_bits) + 1));
  }

private:
  std::mt19937_64 random_;
};

ProgramGraph make_graph(std::size_t sites, Generator& g) {
  ProgramGraph graph;
  std::vector<std::string> procedure_symbols;
  SiteId procedure = kNoSite;
  std::vector<SiteId> containers; // the current procedure and its loops
  for (std::size_t i = 0; i < sites; ++i) {
    const SourcePos pos{"src/unit" + std::to_string(g.below(8)) + ".c",
                        static_cast<std::uint32_t>(1 + g.below(5000)),
                        static_cast<std::uint32_t>(1 + g.below(80))};
    const std::uint64_t roll = g.below(10);
    if (procedure == kNoSite || roll == 0) { // about one site in ten is a procedure
      std::string name = "proc" + std::to_string(i);
      procedure_symbols.push_back("_Z" + std::to_string(name.size()) + name + "v");
      procedure = graph.add_site(SiteKind::Procedure, pos, name, kNoSite, procedure_symbols.back());
      containers.assign(1, procedure);
      continue;
    }
    const SiteId parent = containers[g.below(containers.size())];
    if (roll <= 2) {
      containers.push_back(graph.add_site(SiteKind::Loop, pos, "for", parent));
    } else if (roll <= 6) {
      // Mostly calls to procedures of the program, some external or through pointers.
      const std::uint64_t target = g.below(procedure_symbols.size() + 2);
      std::string symbol = target < procedure_symbols.size()    ? procedure_symbols[target]
                           : target == procedure_symbols.size() ? std::string("printf")
                                                                : std::string();
      graph.add_site(SiteKind::Call, pos, "callee", parent, std::move(symbol));
    } else {
      static const char* const kMpiCalls[] = {"MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Allreduce"};
      graph.add_site(SiteKind::Comm, pos, kMpiCalls[g.below(4)], parent);
    }
  }
  return graph;
}

RankRecords make_rank(const ProgramGraph& graph, const ProfileShape& shape, std::int32_t rank,
                      Generator& g) {
  RankRecords r;
  r.rank = rank;
  r.host = "node" + std::to_string(rank / 16);
  r.real_ns = g.magnitude(40);
  r.virtual_ns = r.real_ns - g.below(r.real_ns / 10 + 1);
  r.intrusion_ns = r.real_ns - r.virtual_ns;
  r.clock_offset_ns = static_cast<std::int64_t>(g.below(2'000'000)) - 1'000'000;
  r.counters = {g.magnitude(30), g.magnitude(12), g.magnitude(6), g.magnitude(16), g.magnitude(30)};
  if (graph.size() > 0) {
    r.procs.push_back({0, kNoSite, r.virtual_ns, 1}); // main, entered from the C runtime
  }
  for (const Site& s : graph.sites()) {
    switch (s.kind) {
    case SiteKind::Call:
      if (const SiteId callee = graph.callee_of(s.id); callee != kNoSite) {
        r.procs.push_back({callee, s.id, g.magnitude(36), g.magnitude(20)});
      }
      break;
    case SiteKind::Loop:
      r.loops.push_back({s.id, g.magnitude(36), g.magnitude(16), g.magnitude(24)});
      break;
    case SiteKind::Comm:
      for (std::int32_t k = 0; k < shape.partners; ++k) {
        const std::int32_t partner =
            s.name == "MPI_Allreduce" ? ComRecord::kCollective : (rank + 1 + k) % shape.ranks;
        ComRecord& com = r.coms.emplace_back(ComRecord{
            s.id, partner, g.magnitude(32), g.magnitude(32), g.magnitude(20), g.magnitude(30)});
        // Every message of one size: the sizes agree with count and bytes.
        if (com.count > 0) {
          com.sizes.min_bytes = com.sizes.max_bytes = com.bytes / com.count;
          com.sizes.classes[size_class(com.sizes.min_bytes)] = com.count;
        }
      }
      break;
    case SiteKind::Procedure:
      break;
    }
  }
  return r;
}

// One context per site, under its parent site's (a procedure's at the top). Its own generator,
// so that profiles without contexts (stored old-format files) keep their other values.
void add_contexts(const ProgramGraph& graph, RankRecords& r, std::uint64_t seed) {
  Generator g(seed ^ (0x9E37'79B9ull * static_cast<std::uint64_t>(r.rank + 1)));
  std::vector<std::uint32_t> position(graph.size(), 0);
  for (const Site& s : graph.sites()) {
    ContextRecord& c = r.contexts.emplace_back();
    c.parent = s.parent == kNoSite ? 0 : position[s.parent];
    c.site = s.id;
    c.count = g.magnitude(20);
    c.time_ns = s.kind == SiteKind::Call ? 0 : g.magnitude(36);
    c.untimed = s.kind == SiteKind::Procedure ? g.below(c.count + 1) : 0;
    c.iterations = s.kind == SiteKind::Loop ? g.magnitude(24) : 0;
    c.sync_delay_ns = s.kind == SiteKind::Comm ? g.magnitude(32) : 0;
    c.bytes = s.kind == SiteKind::Comm ? g.magnitude(30) : 0;
    c.folded = g.below(4) == 0 ? g.magnitude(10) : 0;
    r.counters.folded_contexts += c.folded;
    position[s.id] = static_cast<std::uint32_t>(r.contexts.size());
  }
}

} // namespace

Profile make_synthetic_profile(const ProfileShape& shape, std::uint64_t seed) {
  Generator g(seed);
  Profile p;
  p.meta.command = "mpiexec -n " + std::to_string(shape.ranks) + " ./app --size 4096";
  p.meta.ranks = shape.ranks;
  for (std::int32_t node = 0; node * 16 < shape.ranks; ++node) {
    p.meta.hosts.push_back("node" + std::to_string(node));
  }
  p.meta.start_unix_ns = 1'700'000'000'000'000'000 + static_cast<std::int64_t>(g.magnitude(40));
  p.meta.end_unix_ns = p.meta.start_unix_ns + static_cast<std::int64_t>(g.magnitude(40));
  p.meta.clock = {"tsc", 2.4 + static_cast<double>(g.below(1000)) / 1000.0, g.below(100)};
  p.graph = make_graph(shape.sites, g);
  for (std::int32_t rank = 0; rank < shape.ranks; ++rank) {
    p.ranks.push_back(make_rank(p.graph, shape, rank, g));
  }
  if (shape.contexts) {
    for (RankRecords& r : p.ranks) {
      add_contexts(p.graph, r, seed);
    }
  }
  return p;
}

ProgramGraph make_synthetic_graph(std::size_t sites, std::uint64_t seed) {
  Generator g(seed);
  return make_graph(sites, g);
}

RankRecords make_synthetic_rank(const ProgramGraph& graph, const ProfileShape& shape,
                                std::int32_t rank, std::uint64_t seed) {
  Generator g(seed + static_cast<std::uint64_t>(rank));
  RankRecords r = make_rank(graph, shape, rank, g);
  if (shape.contexts) {
    add_contexts(graph, r, seed);
  }
  return r;
}

} // namespace vcmon::tables::testing
