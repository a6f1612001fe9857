// Reads the profiles the runtime test programs wrote (tables::read_profile_file) and checks
// them against what each deterministic program must have recorded. A GoogleTest program, one
// TEST per scenario, selected by the ctest command line (CheckerArguments.hpp):
//   profile_check --gtest_filter=RuntimeProfile.Records DIR          (also Uninstrumented,
//                                                                      Threads, DeepRecursion,
//                                                                      KilledWriter)
//   profile_check --gtest_filter=RuntimeProfile.ProfileCount DIR N
//   profile_check --gtest_filter=RuntimeProfile.Partial DIR REASON RANK
//   profile_check --gtest_filter=RuntimeProfile.Injection PLAIN_DIR INJECTED_DIR
#include "CheckerArguments.hpp"
#include "CheckerProfiles.hpp"
#include "vcmon/tables/Profile.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace fs = std::filesystem;
using namespace vcmon::tables;
using namespace vcmon::checkers;

namespace {

// The registered site of `kind` named `name` at `line` (the test programs' site tables).
SiteId site(const Profile& profile, SiteKind kind, const std::string& name, std::uint32_t line) {
  for (const Site& s : profile.graph.sites()) {
    if (s.kind == kind && s.name == name && s.pos.line == line && !s.pos.file.empty()) {
      return s.id;
    }
  }
  throw std::runtime_error("expected a registered " + std::string(to_string(kind)) + " site " +
                           name + " at line " + std::to_string(line) + ", found none");
}

const ProcRecord* proc_record(const RankRecords& r, SiteId proc, SiteId call_site) {
  for (const ProcRecord& p : r.procs) {
    if (p.proc == proc && p.call_site == call_site) {
      return &p;
    }
  }
  return nullptr;
}

using ProcKey = std::tuple<SiteId, SiteId, std::uint64_t>;        // proc, call site, count
using LoopKey = std::tuple<SiteId, std::uint64_t, std::uint64_t>; // loop, count, iterations
using ComKey = std::tuple<SiteId, std::int32_t, std::uint64_t, std::uint64_t>; // + count, bytes

std::set<ProcKey> proc_counts(const RankRecords& r) {
  std::set<ProcKey> out;
  for (const ProcRecord& p : r.procs) {
    out.insert({p.proc, p.call_site, p.count});
  }
  return out;
}

std::set<LoopKey> loop_counts(const RankRecords& r) {
  std::set<LoopKey> out;
  for (const LoopRecord& l : r.loops) {
    out.insert({l.loop, l.count, l.iterations});
  }
  return out;
}

std::set<ComKey> com_counts(const RankRecords& r) {
  std::set<ComKey> out;
  for (const ComRecord& c : r.coms) {
    out.insert({c.comm, c.partner, c.count, c.bytes});
  }
  return out;
}

// A rank's calling contexts by path from the top.
using ContextPath = std::vector<SiteId>;
std::map<ContextPath, const ContextRecord*> contexts_by_path(const RankRecords& r) {
  std::vector<ContextPath> paths;
  std::map<ContextPath, const ContextRecord*> out;
  for (const ContextRecord& c : r.contexts) {
    ContextPath path = c.parent == 0 ? ContextPath{} : paths.at(c.parent - 1);
    path.push_back(c.site);
    paths.push_back(path);
    out[path] = &c;
  }
  return out;
}

// The count, iterations and bytes of those of registered sites (below `registered`).
using ContextCounts = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>;
std::map<ContextPath, ContextCounts> context_counts(const RankRecords& r, SiteId registered) {
  std::map<ContextPath, ContextCounts> out;
  for (const auto& [path, c] : contexts_by_path(r)) {
    if (c->site < registered) {
      out[path] = {c->count, c->iterations, c->bytes};
    }
  }
  return out;
}

std::string rank_of(const RankRecords& r) {
  return "rank " + std::to_string(r.rank) + ": ";
}

void expect_consistent_times(const RankRecords& r) {
  EXPECT_GT(r.virtual_ns, 0u) << rank_of(r) << "expected 0 < virtual time";
  EXPECT_LE(r.virtual_ns, r.real_ns) << rank_of(r) << "expected virtual time <= real time";
  EXPECT_EQ(r.intrusion_ns, r.real_ns - r.virtual_ns)
      << rank_of(r) << "expected intrusion = real - virtual";
}

// The synthetic comm site of MPI function `name`: no file, after the registered sites.
SiteId synthetic_site(const Profile& profile, const std::string& name) {
  for (const Site& s : profile.graph.sites()) {
    if (s.kind == SiteKind::Comm && s.name == name && s.pos.file.empty()) {
      return s.id;
    }
  }
  throw std::runtime_error("expected a synthetic comm site " + name + ", found none");
}

// The com records of MPI_Init and MPI_Finalize, collective and once each: every rank's own.
std::set<ComKey> lifecycle_coms(const Profile& profile) {
  return {{synthetic_site(profile, "MPI_Init"), ComRecord::kCollective, 1, 0},
          {synthetic_site(profile, "MPI_Finalize"), ComRecord::kCollective, 1, 0}};
}

// records_program.c under 2 ranks.
TEST(RuntimeProfile, Records) {
  Profile profile;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), profile));
  const SiteId main_proc = site(profile, SiteKind::Procedure, "main", 60);
  const SiteId call_work_once = site(profile, SiteKind::Call, "work", 65);
  const SiteId repeat_loop = site(profile, SiteKind::Loop, "for", 66);
  const SiteId call_work_repeated = site(profile, SiteKind::Call, "work", 68);
  const SiteId call_fact = site(profile, SiteKind::Call, "fact", 70);
  const SiteId work = site(profile, SiteKind::Procedure, "work", 30);
  const SiteId work_loop = site(profile, SiteKind::Loop, "for", 33);
  const SiteId send = site(profile, SiteKind::Comm, "MPI_Send", 37);
  const SiteId recv = site(profile, SiteKind::Comm, "MPI_Recv", 39);
  const SiteId fact = site(profile, SiteKind::Procedure, "fact", 45);
  const SiteId call_fact_self = site(profile, SiteKind::Call, "fact", 49);

  EXPECT_FALSE(profile.meta.partial) << "expected a complete profile";
  EXPECT_EQ(profile.meta.ranks, 2) << "expected a profile of two ranks";
  EXPECT_EQ(profile.ranks.size(), 2u) << "expected the records of two ranks";
  // The registered sites come first, then one synthetic comm site per MPI function.
  EXPECT_GT(profile.graph.size(), 11u)
      << "expected synthetic comm sites after the 11 registered ones";
  for (SiteId id = 11; id < profile.graph.size(); ++id) {
    const Site& s = profile.graph.site(id);
    EXPECT_TRUE(s.kind == SiteKind::Comm && s.pos.file.empty() && s.name.rfind("MPI_", 0) == 0)
        << "expected site " << id << " (" << s.name << ") to be a synthetic comm site";
  }
  for (const RankRecords& r : profile.ranks) {
    const std::string rank = rank_of(r);
    EXPECT_EQ(proc_counts(r), (std::set<ProcKey>{{main_proc, kNoSite, 1},
                                                 {work, call_work_once, 1},
                                                 {work, call_work_repeated, 2},
                                                 {fact, call_fact, 1},
                                                 {fact, call_fact_self, 5}}))
        << rank << "expected these proc records: count per (procedure, activating call site)";
    EXPECT_EQ(loop_counts(r), (std::set<LoopKey>{{repeat_loop, 1, 2}, {work_loop, 3, 7}}))
        << rank << "expected these loop records: executions and iterations";
    std::set<ComKey> expected_coms =
        r.rank == 0 ? std::set<ComKey>{{send, 1, 7, 48}} : std::set<ComKey>{{recv, 0, 7, 48}};
    expected_coms.merge(lifecycle_coms(profile));
    EXPECT_EQ(com_counts(r), expected_coms)
        << rank << "expected these com records: statement, partner, count, bytes";
    // Calling contexts: work's loop and messages apart for each of its two call sites, fact's
    // recursion counted below its recursive call and folded into the outermost fact.
    const SiteId message = r.rank == 0 ? send : recv;
    const ContextPath once{main_proc, call_work_once, work, work_loop};
    const ContextPath repeated{main_proc, repeat_loop, call_work_repeated, work, work_loop};
    const ContextPath outer_fact{main_proc, call_fact, fact, call_fact_self};
    EXPECT_EQ(
        context_counts(r, 11),
        (std::map<ContextPath, ContextCounts>{
            {{main_proc}, {1, 0, 0}},
            {{main_proc, call_work_once}, {1, 0, 0}},
            {{main_proc, call_work_once, work}, {1, 0, 0}},
            {once, {1, 3, 0}},
            {{main_proc, call_work_once, work, work_loop, message}, {3, 0, 24}},
            {{main_proc, repeat_loop}, {1, 2, 0}},
            {{main_proc, repeat_loop, call_work_repeated}, {2, 0, 0}},
            {{main_proc, repeat_loop, call_work_repeated, work}, {2, 0, 0}},
            {repeated, {2, 4, 0}},
            {{main_proc, repeat_loop, call_work_repeated, work, work_loop, message}, {4, 0, 24}},
            {{main_proc, call_fact}, {1, 0, 0}},
            {{main_proc, call_fact, fact}, {1, 0, 0}},
            {outer_fact, {5, 0, 0}},
            {{main_proc, call_fact, fact, call_fact_self, fact}, {5, 0, 0}}}))
        << rank << "expected these calling contexts: count, iterations, bytes per path";
    const auto by_path = contexts_by_path(r);
    const ContextRecord* fact_context = by_path.at({main_proc, call_fact, fact});
    EXPECT_GE(fact_context->time_ns, 6'000'000u) << rank << "expected fact's context >= 6 ms";
    EXPECT_EQ(by_path.at({main_proc, call_fact, fact, call_fact_self, fact})->time_ns, 0u)
        << rank << "expected fact's recursive context to add no time";
    // 68 probe events run before MPI_Finalize (main's exit runs after it).
    EXPECT_EQ(r.counters.probe_events, 68u) << rank << "expected 68 probe events";
    expect_consistent_times(r);
    // Recursion is charged once: the outermost activation holds the 6 sleeps of 1 ms, the
    // recursive activations add their count but no time.
    const ProcRecord* outer = proc_record(r, fact, call_fact);
    const ProcRecord* inner = proc_record(r, fact, call_fact_self);
    const ProcRecord* main_record = proc_record(r, main_proc, kNoSite);
    EXPECT_NE(inner, nullptr) << rank << "expected a record of fact's recursive activations";
    if (inner != nullptr) {
      EXPECT_EQ(inner->time_ns, 0u) << rank << "expected recursive activations to add no time";
    }
    EXPECT_NE(outer, nullptr) << rank << "expected a record of fact called from main";
    EXPECT_NE(main_record, nullptr) << rank << "expected a record of main";
    if (outer == nullptr || main_record == nullptr) {
      continue;
    }
    EXPECT_GE(outer->time_ns, 6'000'000u) << rank << "expected fact's outer time >= 6 ms";
    EXPECT_GT(main_record->time_ns, outer->time_ns)
        << rank << "expected main (still open at MPI_Finalize) to cover fact";
    // MPI_Init and MPI_Finalize are main's statements: their time lies within main's.
    std::uint64_t lifecycle_ns = 0;
    for (const ComRecord& c : r.coms) {
      if (lifecycle_coms(profile).contains({c.comm, c.partner, c.count, c.bytes})) {
        lifecycle_ns += c.transmission_ns + c.sync_delay_ns;
      }
    }
    EXPECT_LE(lifecycle_ns + outer->time_ns, main_record->time_ns)
        << rank << "expected MPI_Init, MPI_Finalize and fact (time + time) to lie within main";
  }
}

// uninstrumented_program.c under 2 ranks.
TEST(RuntimeProfile, Uninstrumented) {
  Profile profile;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), profile));
  const SiteId send = synthetic_site(profile, "MPI_Send");
  const SiteId recv = synthetic_site(profile, "MPI_Recv");
  const SiteId barrier = synthetic_site(profile, "MPI_Barrier");
  EXPECT_EQ(profile.ranks.size(), 2u) << "expected the records of two ranks";
  for (const Site& s : profile.graph.sites()) {
    EXPECT_TRUE(s.kind == SiteKind::Comm && s.pos.file.empty())
        << "expected only synthetic sites, found " << to_string(s.kind) << " site " << s.name
        << " at " << s.pos.file << ":" << s.pos.line;
  }
  for (const RankRecords& r : profile.ranks) {
    const std::string rank = rank_of(r);
    EXPECT_TRUE(r.procs.empty()) << rank << "expected no proc records";
    EXPECT_TRUE(r.loops.empty()) << rank << "expected no loop records";
    std::set<ComKey> point_to_point;
    std::uint64_t barriers = 0;
    const std::set<ComKey> lifecycle = lifecycle_coms(profile);
    std::size_t lifecycle_records = 0;
    for (const ComRecord& c : r.coms) {
      if (lifecycle.contains({c.comm, c.partner, c.count, c.bytes})) {
        ++lifecycle_records; // MPI_Init and MPI_Finalize: once each, collective
        continue;
      }
      if (c.comm == barrier) {
        EXPECT_EQ(c.partner, ComRecord::kCollective) << rank << "expected a barrier collective";
        barriers += c.count;
      } else {
        point_to_point.insert({c.comm, c.partner, c.count, c.bytes});
      }
    }
    const std::set<ComKey> expected =
        r.rank == 0 ? std::set<ComKey>{{send, 1, 3, 48}} : std::set<ComKey>{{recv, 0, 3, 48}};
    EXPECT_EQ(point_to_point, expected)
        << rank << "expected these point-to-point records per MPI function";
    EXPECT_EQ(barriers, 1u) << rank << "expected one barrier";
    EXPECT_EQ(lifecycle_records, 2u) << rank << "expected one MPI_Init and one MPI_Finalize record";
  }
}

// Several runs (or none) into one directory: DIR N.
TEST(RuntimeProfile, ProfileCount) {
  const fs::path dir = checker_argument(0);
  const std::uint64_t expected = checker_argument_u64(1);
  ASSERT_TRUE(fs::is_directory(dir)) << "expected the runs' profile directory " << dir.string();
  const std::vector<fs::path> found = profiles_in(dir);
  EXPECT_EQ(found.size(), expected) << "expected " << expected << " profiles in " << dir.string();
  for (const fs::path& path : found) {
    const Profile profile = read_profile_file(path);
    EXPECT_FALSE(profile.meta.partial) << "expected " << path.filename().string() << " complete";
    EXPECT_FALSE(profile.ranks.empty())
        << "expected " << path.filename().string() << " to hold records";
  }
}

// threads_program.c: 4 threads × 50 000 steps × 3 iterations, no MPI.
TEST(RuntimeProfile, Threads) {
  Profile profile;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), profile));
  const SiteId main_proc = site(profile, SiteKind::Procedure, "main", 40);
  const SiteId body = site(profile, SiteKind::Procedure, "thread_body", 30);
  const SiteId call_step = site(profile, SiteKind::Call, "step", 33);
  const SiteId step = site(profile, SiteKind::Procedure, "step", 20);
  const SiteId step_loop = site(profile, SiteKind::Loop, "for", 23);
  EXPECT_FALSE(profile.meta.partial) << "expected a complete profile";
  EXPECT_EQ(profile.meta.ranks, 1) << "expected a one-process profile without MPI";
  ASSERT_EQ(profile.ranks.size(), 1u) << "expected the records of one process";
  const RankRecords& r = profile.ranks.front();
  EXPECT_EQ(
      proc_counts(r),
      (std::set<ProcKey>{{main_proc, kNoSite, 1}, {body, kNoSite, 4}, {step, call_step, 200'000}}))
      << "expected these proc records of 4 threads";
  EXPECT_EQ(loop_counts(r), (std::set<LoopKey>{{step_loop, 200'000, 600'000}}))
      << "expected these loop records of 4 threads";
  // Per thread: 2 + 50 000 × (call 2 + proc 2 + loop 2 + 3 iterations); main: 2.
  EXPECT_EQ(r.counters.probe_events, 4u * (2 + 50'000 * 9) + 2)
      << "expected every probe event counted";
  expect_consistent_times(r);
}

// threads_program.c signals: main's step() 300 000 times while a timer's handler runs
// instrumented code, nested: main's records exact whatever the handlers did.
TEST(RuntimeProfile, Signals) {
  Profile profile;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), profile));
  const SiteId main_proc = site(profile, SiteKind::Procedure, "main", 40);
  const SiteId call_step = site(profile, SiteKind::Call, "step", 62);
  const SiteId step = site(profile, SiteKind::Procedure, "step", 20);
  const SiteId step_loop = site(profile, SiteKind::Loop, "for", 23);
  const SiteId handler = site(profile, SiteKind::Procedure, "on_alarm", 50);
  EXPECT_FALSE(profile.meta.partial) << "expected a complete profile";
  ASSERT_EQ(profile.ranks.size(), 1u);
  const RankRecords& r = profile.ranks.front();
  std::set<ProcKey> mains;
  std::uint64_t handled = 0;
  for (const ProcKey& key : proc_counts(r)) {
    if (std::get<0>(key) == handler) {
      handled += std::get<2>(key);
    } else {
      mains.insert(key);
    }
  }
  EXPECT_EQ(mains, (std::set<ProcKey>{{main_proc, kNoSite, 1}, {step, call_step, 300'000}}))
      << "expected main's proc records exact";
  EXPECT_GT(handled, 0u) << "expected the handler's activations between main's probes counted";
  std::uint64_t step_loop_runs = 0;
  for (const LoopKey& key : loop_counts(r)) {
    if (std::get<0>(key) == step_loop) {
      EXPECT_EQ(key, (LoopKey{step_loop, 300'000, 900'000})) << "expected main's loop exact";
      ++step_loop_runs;
    }
  }
  EXPECT_EQ(step_loop_runs, 1u);
}

// deep_recursion_program.c: descend(200000) then descend(3), far beyond a 256-frame stack.
TEST(RuntimeProfile, DeepRecursion) {
  Profile profile;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), profile));
  const SiteId main_proc = site(profile, SiteKind::Procedure, "main", 30);
  const SiteId call_descend = site(profile, SiteKind::Call, "descend", 32);
  const SiteId descend = site(profile, SiteKind::Procedure, "descend", 20);
  const SiteId call_self = site(profile, SiteKind::Call, "descend", 23);
  ASSERT_FALSE(profile.ranks.empty()) << "expected the records of the process";
  const RankRecords& r = profile.ranks.front();
  EXPECT_EQ(proc_counts(r), (std::set<ProcKey>{{main_proc, kNoSite, 1},
                                               {descend, call_descend, 2},
                                               {descend, call_self, 199'999 + 2}}))
      << "expected every activation counted under its call site, beyond the stack too";
  // The thread's deepest moment: its call of descend, then a frame for each of the 200000
  // activations and for each of their 199999 self calls.
  const std::uint64_t deepest = 1 + 200'000 + 199'999;
  EXPECT_EQ(profile.meta.activation_depth, 256u)
      << "expected the profile to name the stack's depth";
  EXPECT_EQ(r.counters.folded_activations, deepest - 256)
      << "expected the activations beyond the stack's 256 frames folded";
  const ProcRecord* main_record = proc_record(r, main_proc, kNoSite);
  const ProcRecord* outer = proc_record(r, descend, call_descend);
  ASSERT_NE(main_record, nullptr) << "expected a record of main";
  ASSERT_NE(outer, nullptr) << "expected a record of descend called from main";
  EXPECT_GE(main_record->time_ns, outer->time_ns) << "expected main's time to cover the recursion";
}

// ending_program.c: a partial profile of rank RANK, whose reason mentions REASON.
TEST(RuntimeProfile, Partial) {
  const fs::path dir = checker_argument(0);
  const std::string reason = checker_argument(1);
  const std::int32_t rank = checker_argument_int(2);
  std::vector<Profile> profiles;
  for (const fs::path& path : profiles_in(dir)) {
    profiles.push_back(read_profile_file(path));
  }
  const Profile* mine = nullptr;
  for (const Profile& p : profiles) {
    if (p.ranks.size() == 1 && p.ranks.front().rank == rank) {
      mine = &p;
    }
  }
  ASSERT_NE(mine, nullptr) << "expected a profile of rank " << rank << " alone in " << dir.string()
                           << " (" << profiles.size() << " profiles there)";
  EXPECT_TRUE(mine->meta.partial) << "expected the profile marked partial";
  EXPECT_NE(mine->meta.partial_reason.find(reason), std::string::npos)
      << "expected the reason '" << mine->meta.partial_reason << "' to mention '" << reason << "'";
  const SiteId main_proc = site(*mine, SiteKind::Procedure, "main", 40);
  const SiteId call_work = site(*mine, SiteKind::Call, "work", 45);
  const SiteId work = site(*mine, SiteKind::Procedure, "work", 25);
  const SiteId work_loop = site(*mine, SiteKind::Loop, "for", 27);
  const RankRecords& r = mine->ranks.front();
  EXPECT_EQ(proc_counts(r), (std::set<ProcKey>{{main_proc, kNoSite, 1}, {work, call_work, 2}}))
      << "expected these proc records up to the end";
  EXPECT_EQ(loop_counts(r), (std::set<LoopKey>{{work_loop, 2, 10}}))
      << "expected these loop records up to the end";
}

std::uint64_t work_time(const Profile& profile, const RankRecords& r) {
  const SiteId work = site(profile, SiteKind::Procedure, "work", 25);
  std::uint64_t total = 0;
  for (const ProcRecord& p : r.procs) {
    total += p.proc == work ? p.time_ns : 0;
  }
  return total;
}

// injection_program.c without and with 2 ms per probe: PLAIN_DIR INJECTED_DIR.
TEST(RuntimeProfile, Injection) {
  Profile plain;
  Profile injected;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), plain));
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(1), injected));
  EXPECT_EQ(plain.ranks.size(), injected.ranks.size()) << "expected the same ranks in both runs";
  EXPECT_FALSE(plain.ranks.empty()) << "expected records of the plain run";
  for (std::size_t i = 0; i < plain.ranks.size() && i < injected.ranks.size(); ++i) {
    const double plain_ns = static_cast<double>(work_time(plain, plain.ranks[i]));
    const double injected_ns = static_cast<double>(work_time(injected, injected.ranks[i]));
    const double deviation = (injected_ns - plain_ns) / plain_ns;
    std::printf("rank %zu: work() virtual %.1f ms plain, %.1f ms with 2 ms/probe injected "
                "(%+.2f%%), intrusion %.1f ms\n",
                i, plain_ns * 1e-6, injected_ns * 1e-6, deviation * 100,
                static_cast<double>(injected.ranks[i].intrusion_ns) * 1e-6);
    // Its sleeps last 500 ms of real time; virtual time may show up to 1% less: the monitor's
    // work beside the program (each rank's live publisher's CPU time) is charged though the
    // program slept meanwhile, and probes charge calibrated constants (docs/runtime.md, "The
    // floor" and "What a probe charges"). 499.9 ms in one sanitizer CI rehearsal.
    EXPECT_GE(plain_ns, 495e6) << "rank " << i
                               << ": expected plain work() to last its 20 sleeps of 25 ms";
    EXPECT_TRUE(deviation <= 0.05 && deviation >= -0.05)
        << "rank " << i << ": expected virtual time within 5% of the plain run, deviation "
        << deviation * 100 << "%";
    // 82 probes before MPI_Finalize, each charged its 2 ms. Finalize's collective then
    // continues every rank from the latest participant's virtual entry and re-derives
    // I = RT - VT (docs/design.md, "Virtual time"), which takes back the ranks' virtual skew at
    // that point: a few ms at most here, so 98% of the injected cost must remain.
    EXPECT_GE(injected.ranks[i].intrusion_ns, 82 * 2'000'000ull * 98 / 100)
        << "rank " << i << ": expected 98% of the injected cost as intrusion";
  }
}

// ending_program.c file_limit: its writer was killed by its first write past 1 KiB (the
// summary, which rank 0 writes first, at the end of the file). No profile under a final name,
// only the temporary, named so that users recognise it.
TEST(RuntimeProfile, KilledWriter) {
  const fs::path dir = checker_argument(0);
  ASSERT_TRUE(fs::is_directory(dir)) << "expected the run's profile directory " << dir.string();
  std::vector<std::string> temporaries;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_NE(entry.path().extension().string(), ".vcmon")
        << name << ": expected no profile name after a killed writer";
    if (name.starts_with("ending_program-") &&
        name.find(".vcmon.incomplete-") != std::string::npos) {
      temporaries.push_back(name);
    }
  }
  EXPECT_EQ(temporaries.size(), 1u) << "expected one NAME.vcmon.incomplete-XXXXXX left";
}

} // namespace
