#include "SimulatedProgram.hpp"

#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace vcmon::report::testing {
namespace {

using tables::SiteId;
using tables::SiteKind;

constexpr const char* kMpiFunctions[] = {"MPI_Send", "MPI_Recv",    "MPI_Isend",   "MPI_Irecv",
                                         "MPI_Wait", "MPI_Waitall", "MPI_Barrier", "MPI_Allreduce"};
// Activations a rank runs at most: calls inside loops multiply, the budget bounds the run.
constexpr int kActivationBudget = 400;

bool is_collective(const std::string& function) {
  return function == "MPI_Barrier" || function == "MPI_Allreduce";
}

bool is_nonblocking(const std::string& function) {
  return function == "MPI_Isend" || function == "MPI_Irecv";
}

struct Statement {
  SiteKind kind = SiteKind::Comm; // Call, Loop or Comm
  SiteId site = tables::kNoSite;
  std::size_t callee = 0;      // Call: index of the procedure
  std::vector<Statement> body; // Loop
};

struct Procedure {
  SiteId site = tables::kNoSite;
  std::vector<Statement> body;
};

// What one rank's run accumulates, keyed as the records are.
struct RankAccumulator {
  std::map<std::pair<SiteId, SiteId>, tables::ProcRecord> procs;
  std::map<SiteId, tables::LoopRecord> loops;
  std::map<std::pair<SiteId, std::int32_t>, tables::ComRecord> coms;
};

class Simulation {
public:
  Simulation(std::uint64_t seed, std::int32_t ranks) : random_(seed), ranks_(ranks) {}

  tables::Profile run() {
    profile_.meta.command = "./simulated";
    profile_.meta.ranks = ranks_;
    profile_.meta.hosts = {"node0"};
    profile_.meta.clock.source = "tsc";
    make_program();
    for (std::int32_t rank = 0; rank < ranks_; ++rank) {
      profile_.ranks.push_back(run_rank(rank));
    }
    return std::move(profile_);
  }

private:
  std::uint64_t below(std::uint64_t bound) {
    return std::uniform_int_distribution<std::uint64_t>(0, bound - 1)(random_);
  }

  tables::SourcePos next_position() { return {"sim.c", ++line_, 3}; }

  void make_program() {
    auto& graph = profile_.graph;
    const std::size_t count = 2 + below(5);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string name = i == 0 ? "main" : "proc" + std::to_string(i);
      procedures_.push_back(
          {graph.add_site(SiteKind::Procedure, next_position(), name, tables::kNoSite, name), {}});
    }
    for (std::size_t i = 0; i < count; ++i) {
      procedures_[i].body = make_body(i, procedures_[i].site, 0);
    }
    // The monitor's site for an MPI function called from uninstrumented code: no position.
    uninstrumented_ = graph.add_site(SiteKind::Comm, {}, "MPI_Allreduce", tables::kNoSite);
  }

  // Calls go only to later procedures, so the call graph has no cycle.
  std::vector<Statement> make_body(std::size_t proc, SiteId parent, int loop_depth) {
    std::vector<Statement> body(1 + below(4));
    for (auto& statement : body) {
      const std::uint64_t roll = below(3);
      const bool can_call = proc + 1 < procedures_.size();
      if (roll == 0 && can_call) {
        statement.kind = SiteKind::Call;
        statement.callee = proc + 1 + below(procedures_.size() - proc - 1);
        const auto& callee = profile_.graph.site(procedures_[statement.callee].site);
        statement.site = profile_.graph.add_site(SiteKind::Call, next_position(), callee.name,
                                                 parent, callee.symbol);
      } else if (roll == 1 && loop_depth < 2) {
        statement.kind = SiteKind::Loop;
        statement.site = profile_.graph.add_site(SiteKind::Loop, next_position(), "for", parent);
        statement.body = make_body(proc, statement.site, loop_depth + 1);
      } else {
        statement.kind = SiteKind::Comm;
        statement.site =
            profile_.graph.add_site(SiteKind::Comm, next_position(),
                                    kMpiFunctions[below(std::size(kMpiFunctions))], parent);
      }
    }
    return body;
  }

  std::uint64_t work() { return 1 + below(100'000); }

  tables::RankRecords run_rank(std::int32_t rank) {
    rank_ = rank;
    budget_ = kActivationBudget;
    run_ = {};
    tables::RankRecords records;
    records.rank = rank;
    records.host = "node0";
    const std::uint64_t main_ns = activate(0, tables::kNoSite);
    records.virtual_ns = main_ns + below(1'000'000); // MPI_Init and the C runtime around main
    records.intrusion_ns = below(100'000);
    records.real_ns = records.virtual_ns + records.intrusion_ns;
    for (const auto& [key, proc] : run_.procs) {
      records.procs.push_back(proc);
    }
    for (const auto& [key, loop] : run_.loops) {
      records.loops.push_back(loop);
    }
    for (const auto& [key, com] : run_.coms) {
      records.coms.push_back(com);
    }
    return records;
  }

  std::uint64_t activate(std::size_t proc, SiteId call_site) {
    if (budget_ == 0) {
      return 0; // not called on this rank: no record, no time
    }
    --budget_;
    std::uint64_t time = work() + run_body(procedures_[proc].body);
    if (proc == 0) {
      time += communicate(uninstrumented_);
    }
    auto& record = run_.procs[{procedures_[proc].site, call_site}];
    record.proc = procedures_[proc].site;
    record.call_site = call_site;
    record.time_ns += time;
    ++record.count;
    return time;
  }

  std::uint64_t run_body(const std::vector<Statement>& body) {
    std::uint64_t time = 0;
    for (const auto& statement : body) {
      time += work();
      switch (statement.kind) {
      case SiteKind::Call:
        time += activate(statement.callee, statement.site);
        break;
      case SiteKind::Loop:
        time += run_loop(statement);
        break;
      default:
        time += communicate(statement.site);
        break;
      }
    }
    return time;
  }

  std::uint64_t run_loop(const Statement& loop) {
    const std::uint64_t iterations = below(4);
    std::uint64_t time = 0;
    for (std::uint64_t i = 0; i < iterations; ++i) {
      time += work() + run_body(loop.body);
    }
    auto& record = run_.loops[loop.site];
    record.loop = loop.site;
    record.time_ns += time;
    ++record.count;
    record.iterations += iterations;
    return time;
  }

  std::uint64_t communicate(SiteId site) {
    const std::string& function = profile_.graph.site(site).name;
    const bool collective = is_collective(function);
    const std::int32_t partner =
        collective ? tables::ComRecord::kCollective
                   : static_cast<std::int32_t>((rank_ + 1 + below(ranks_)) % ranks_);
    // A nonblocking call holds its own time; completions and blocking calls also wait.
    const std::uint64_t transmission = below(20'000);
    const std::uint64_t sync = is_nonblocking(function) ? 0 : below(200'000);
    auto& record = run_.coms[{site, partner}];
    record.comm = site;
    record.partner = partner;
    record.transmission_ns += transmission;
    record.sync_delay_ns += sync;
    ++record.count;
    const std::uint64_t bytes = function == "MPI_Barrier" ? 0 : 8 * (1 + below(512));
    record.bytes += bytes;
    record.sizes.min_bytes =
        record.sizes.messages() > 0 ? std::min(record.sizes.min_bytes, bytes) : bytes;
    record.sizes.max_bytes = std::max(record.sizes.max_bytes, bytes);
    ++record.sizes.classes[tables::size_class(bytes)];
    return transmission + sync;
  }

  std::mt19937_64 random_;
  std::int32_t ranks_;
  tables::Profile profile_;
  std::vector<Procedure> procedures_;
  SiteId uninstrumented_ = tables::kNoSite;
  std::uint32_t line_ = 0;
  std::int32_t rank_ = 0;
  int budget_ = 0;
  RankAccumulator run_;
};

} // namespace

tables::Profile simulated_program_profile(std::uint64_t seed, std::int32_t ranks) {
  return Simulation(seed, ranks).run();
}

} // namespace vcmon::report::testing
