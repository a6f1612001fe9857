// Reads the profiles the runtime test programs wrote (tables::read_profile_file) and checks
// them against what each deterministic program must have recorded. Usage:
//   profile_check <scenario> <dir> [args...]     exit status 0 when every check holds
#include "vcmon/tables/Profile.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace fs = std::filesystem;
using namespace vcmon::tables;

namespace {

int failures = 0;

void expect(bool condition, const std::string& what) {
  if (!condition) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

std::vector<fs::path> profiles_in(const fs::path& dir) {
  std::vector<fs::path> found;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".vcmon") {
      found.push_back(entry.path());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

Profile the_profile_in(const fs::path& dir) {
  const std::vector<fs::path> found = profiles_in(dir);
  if (found.size() != 1) {
    throw std::runtime_error("expected one profile in " + dir.string() + ", found " +
                             std::to_string(found.size()));
  }
  return read_profile_file(found.front());
}

// The registered site of `kind` named `name` at `line` (the test programs' site tables).
SiteId site(const Profile& profile, SiteKind kind, const std::string& name, std::uint32_t line) {
  for (const Site& s : profile.graph.sites()) {
    if (s.kind == kind && s.name == name && s.pos.line == line && !s.pos.file.empty()) {
      return s.id;
    }
  }
  throw std::runtime_error("no " + std::string(to_string(kind)) + " site " + name + " at line " +
                           std::to_string(line));
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

void expect_consistent_times(const RankRecords& r) {
  const std::string rank = "rank " + std::to_string(r.rank) + ": ";
  expect(r.virtual_ns > 0 && r.virtual_ns <= r.real_ns, rank + "0 < virtual <= real");
  expect(r.intrusion_ns == r.real_ns - r.virtual_ns, rank + "intrusion = real - virtual");
}

// The synthetic comm site of MPI function `name`: no file, after the registered sites.
SiteId synthetic_site(const Profile& profile, const std::string& name) {
  for (const Site& s : profile.graph.sites()) {
    if (s.kind == SiteKind::Comm && s.name == name && s.pos.file.empty()) {
      return s.id;
    }
  }
  throw std::runtime_error("no synthetic comm site " + name);
}

// The com records of MPI_Init and MPI_Finalize, collective and once each: every rank's own.
std::set<ComKey> lifecycle_coms(const Profile& profile) {
  return {{synthetic_site(profile, "MPI_Init"), ComRecord::kCollective, 1, 0},
          {synthetic_site(profile, "MPI_Finalize"), ComRecord::kCollective, 1, 0}};
}

// records_program.c under 2 ranks.
void check_records(const fs::path& dir) {
  const Profile profile = the_profile_in(dir);
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

  expect(!profile.meta.partial, "the profile is complete");
  expect(profile.meta.ranks == 2 && profile.ranks.size() == 2, "two ranks");
  // The registered sites come first, then one synthetic comm site per MPI function.
  expect(profile.graph.size() > 11, "synthetic comm sites follow the registered ones");
  for (SiteId id = 11; id < profile.graph.size(); ++id) {
    const Site& s = profile.graph.site(id);
    expect(s.kind == SiteKind::Comm && s.pos.file.empty() && s.name.rfind("MPI_", 0) == 0,
           "site " + std::to_string(id) + " is a synthetic comm site");
  }
  for (const RankRecords& r : profile.ranks) {
    const std::string rank = "rank " + std::to_string(r.rank) + ": ";
    expect(proc_counts(r) == std::set<ProcKey>{{main_proc, kNoSite, 1},
                                               {work, call_work_once, 1},
                                               {work, call_work_repeated, 2},
                                               {fact, call_fact, 1},
                                               {fact, call_fact_self, 5}},
           rank + "proc records: count per (procedure, activating call site)");
    expect(loop_counts(r) == std::set<LoopKey>{{repeat_loop, 1, 2}, {work_loop, 3, 7}},
           rank + "loop records: executions and iterations");
    std::set<ComKey> expected_coms =
        r.rank == 0 ? std::set<ComKey>{{send, 1, 7, 48}} : std::set<ComKey>{{recv, 0, 7, 48}};
    expected_coms.merge(lifecycle_coms(profile));
    expect(com_counts(r) == expected_coms, rank + "com records: statement, partner, count, bytes");
    // Recursion is charged once: the outermost activation holds the 6 sleeps of 1 ms, the
    // recursive activations add their count but no time.
    const ProcRecord* outer = proc_record(r, fact, call_fact);
    const ProcRecord* inner = proc_record(r, fact, call_fact_self);
    expect(outer != nullptr && outer->time_ns >= 6'000'000, rank + "fact's outer time >= 6 ms");
    expect(inner != nullptr && inner->time_ns == 0, rank + "recursive activations add no time");
    const ProcRecord* main_record = proc_record(r, main_proc, kNoSite);
    expect(main_record != nullptr && outer != nullptr && main_record->time_ns > outer->time_ns,
           rank + "main (still open at MPI_Finalize) covers fact");
    // MPI_Init and MPI_Finalize are main's statements: their time lies within main's.
    std::uint64_t lifecycle_ns = 0;
    for (const ComRecord& c : r.coms) {
      if (lifecycle_coms(profile).contains({c.comm, c.partner, c.count, c.bytes})) {
        lifecycle_ns += c.transmission_ns + c.sync_delay_ns;
      }
    }
    expect(main_record != nullptr && lifecycle_ns + outer->time_ns <= main_record->time_ns,
           rank + "MPI_Init, MPI_Finalize and fact lie within main");
    // 68 probe events run before MPI_Finalize (main's exit runs after it).
    expect(r.counters.probe_events == 68,
           rank + "68 probe events, counted " + std::to_string(r.counters.probe_events));
    expect_consistent_times(r);
  }
}

// uninstrumented_program.c under 2 ranks.
void check_uninstrumented(const fs::path& dir) {
  const Profile profile = the_profile_in(dir);
  const SiteId send = synthetic_site(profile, "MPI_Send");
  const SiteId recv = synthetic_site(profile, "MPI_Recv");
  const SiteId barrier = synthetic_site(profile, "MPI_Barrier");
  expect(profile.ranks.size() == 2, "two ranks");
  for (const Site& s : profile.graph.sites()) {
    expect(s.kind == SiteKind::Comm && s.pos.file.empty(), "only synthetic sites");
  }
  for (const RankRecords& r : profile.ranks) {
    const std::string rank = "rank " + std::to_string(r.rank) + ": ";
    expect(r.procs.empty() && r.loops.empty(), rank + "no proc or loop records");
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
        expect(c.partner == ComRecord::kCollective, rank + "a barrier is collective");
        barriers += c.count;
      } else {
        point_to_point.insert({c.comm, c.partner, c.count, c.bytes});
      }
    }
    const std::set<ComKey> expected =
        r.rank == 0 ? std::set<ComKey>{{send, 1, 3, 48}} : std::set<ComKey>{{recv, 0, 3, 48}};
    expect(point_to_point == expected, rank + "point-to-point records per MPI function");
    expect(barriers == 1, rank + "one barrier");
    expect(lifecycle_records == 2, rank + "one MPI_Init and one MPI_Finalize record");
  }
}

void check_profile_count(const fs::path& dir, std::size_t expected) {
  const std::vector<fs::path> found = profiles_in(dir);
  expect(found.size() == expected, "expected " + std::to_string(expected) + " profiles in " +
                                       dir.string() + ", found " + std::to_string(found.size()));
  for (const fs::path& path : found) {
    const Profile profile = read_profile_file(path);
    expect(!profile.meta.partial, path.filename().string() + " is complete");
    expect(!profile.ranks.empty(), path.filename().string() + " holds records");
  }
}

// threads_program.c: 4 threads × 50 000 steps × 3 iterations, no MPI.
void check_threads(const fs::path& dir) {
  const Profile profile = the_profile_in(dir);
  const SiteId main_proc = site(profile, SiteKind::Procedure, "main", 40);
  const SiteId body = site(profile, SiteKind::Procedure, "thread_body", 30);
  const SiteId call_step = site(profile, SiteKind::Call, "step", 33);
  const SiteId step = site(profile, SiteKind::Procedure, "step", 20);
  const SiteId step_loop = site(profile, SiteKind::Loop, "for", 23);
  expect(!profile.meta.partial && profile.meta.ranks == 1 && profile.ranks.size() == 1,
         "a complete one-process profile without MPI");
  const RankRecords& r = profile.ranks.front();
  expect(proc_counts(r) == std::set<ProcKey>{{main_proc, kNoSite, 1},
                                             {body, kNoSite, 4},
                                             {step, call_step, 200'000}},
         "proc records of 4 threads");
  expect(loop_counts(r) == std::set<LoopKey>{{step_loop, 200'000, 600'000}},
         "loop records of 4 threads");
  // Per thread: 2 + 50 000 × (call 2 + proc 2 + loop 2 + 3 iterations); main: 2.
  expect(r.counters.probe_events == 4 * (2 + 50'000 * 9) + 2, "every probe event counted");
  expect_consistent_times(r);
}

// deep_recursion_program.c: descend(200000) then descend(3), far beyond a 256-frame stack.
void check_deep_recursion(const fs::path& dir) {
  const Profile profile = the_profile_in(dir);
  const SiteId main_proc = site(profile, SiteKind::Procedure, "main", 30);
  const SiteId call_descend = site(profile, SiteKind::Call, "descend", 32);
  const SiteId descend = site(profile, SiteKind::Procedure, "descend", 20);
  const SiteId call_self = site(profile, SiteKind::Call, "descend", 23);
  const RankRecords& r = profile.ranks.front();
  expect(proc_counts(r) == std::set<ProcKey>{{main_proc, kNoSite, 1},
                                             {descend, call_descend, 2},
                                             {descend, call_self, 199'999 + 2}},
         "every activation counted under its call site, beyond the stack too");
  // The thread's deepest moment: its call of descend, then a frame for each of the 200000
  // activations and for each of their 199999 self calls.
  const std::uint64_t deepest = 1 + 200'000 + 199'999;
  expect(profile.meta.activation_depth == 256, "the profile names the stack's depth");
  expect(r.counters.folded_activations == deepest - 256,
         "activations folded: " + std::to_string(r.counters.folded_activations) + ", expected " +
             std::to_string(deepest - 256));
  const ProcRecord* main_record = proc_record(r, main_proc, kNoSite);
  const ProcRecord* outer = proc_record(r, descend, call_descend);
  expect(main_record != nullptr && outer != nullptr && main_record->time_ns >= outer->time_ns,
         "main's time covers the recursion");
}

// ending_program.c: a partial profile of `rank`, whose reason mentions `reason`.
void check_partial(const fs::path& dir, const std::string& reason, std::int32_t rank) {
  const Profile* mine = nullptr;
  std::vector<Profile> profiles;
  for (const fs::path& path : profiles_in(dir)) {
    profiles.push_back(read_profile_file(path));
  }
  for (const Profile& p : profiles) {
    if (p.ranks.size() == 1 && p.ranks.front().rank == rank) {
      mine = &p;
    }
  }
  if (mine == nullptr) {
    throw std::runtime_error("no profile of rank " + std::to_string(rank) + " in " + dir.string());
  }
  expect(mine->meta.partial, "the profile is marked partial");
  expect(mine->meta.partial_reason.find(reason) != std::string::npos,
         "the reason '" + mine->meta.partial_reason + "' mentions '" + reason + "'");
  const SiteId main_proc = site(*mine, SiteKind::Procedure, "main", 40);
  const SiteId call_work = site(*mine, SiteKind::Call, "work", 45);
  const SiteId work = site(*mine, SiteKind::Procedure, "work", 25);
  const SiteId work_loop = site(*mine, SiteKind::Loop, "for", 27);
  const RankRecords& r = mine->ranks.front();
  expect(proc_counts(r) == std::set<ProcKey>{{main_proc, kNoSite, 1}, {work, call_work, 2}},
         "proc records up to the end");
  expect(loop_counts(r) == std::set<LoopKey>{{work_loop, 2, 10}}, "loop records up to the end");
}

std::uint64_t work_time(const Profile& profile, const RankRecords& r) {
  const SiteId work = site(profile, SiteKind::Procedure, "work", 25);
  std::uint64_t total = 0;
  for (const ProcRecord& p : r.procs) {
    total += p.proc == work ? p.time_ns : 0;
  }
  return total;
}

// injection_program.c without and with 2 ms per probe.
void check_injection(const fs::path& plain_dir, const fs::path& injected_dir) {
  const Profile plain = the_profile_in(plain_dir);
  const Profile injected = the_profile_in(injected_dir);
  expect(plain.ranks.size() == injected.ranks.size() && !plain.ranks.empty(), "same ranks");
  for (std::size_t i = 0; i < plain.ranks.size() && i < injected.ranks.size(); ++i) {
    const double plain_ns = static_cast<double>(work_time(plain, plain.ranks[i]));
    const double injected_ns = static_cast<double>(work_time(injected, injected.ranks[i]));
    const double deviation = (injected_ns - plain_ns) / plain_ns;
    std::printf("rank %zu: work() virtual %.1f ms plain, %.1f ms with 2 ms/probe injected "
                "(%+.2f%%), intrusion %.1f ms\n",
                i, plain_ns * 1e-6, injected_ns * 1e-6, deviation * 100,
                static_cast<double>(injected.ranks[i].intrusion_ns) * 1e-6);
    expect(plain_ns >= 500e6, "plain work() lasts its 20 sleeps of 25 ms");
    expect(deviation <= 0.05 && deviation >= -0.05, "virtual time within 5% of the plain run");
    // 82 probes before MPI_Finalize, each charged its 2 ms. Finalize's collective then
    // continues every rank from the latest participant's virtual entry and re-derives
    // I = RT - VT (DESIGN.md §5), which takes back the ranks' virtual skew at that point:
    // a few ms at most here, so 98% of the injected cost must remain.
    expect(injected.ranks[i].intrusion_ns >= 82 * 2'000'000ull * 98 / 100,
           "injected cost is intrusion");
  }
}

// ending_program.c file_limit: its writer was killed halfway. No profile under a final name
// (empty or not), only the temporary, named so that users recognise it.
void check_killed_writer(const fs::path& dir) {
  std::vector<std::string> temporaries;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    expect(entry.path().extension() != ".vcmon", name + ": a profile name after a killed writer");
    expect(entry.file_size() > 0, name + " is empty");
    if (name.starts_with("ending_program-") &&
        name.find(".vcmon.incomplete-") != std::string::npos) {
      temporaries.push_back(name);
    }
  }
  expect(temporaries.size() == 1,
         "one NAME.vcmon.incomplete-XXXXXX left, found " + std::to_string(temporaries.size()));
}

} // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 2 && args[0] == "records") {
      check_records(args[1]);
    } else if (args.size() == 3 && args[0] == "count") {
      check_profile_count(args[1], std::stoul(args[2]));
    } else if (args.size() == 2 && args[0] == "uninstrumented") {
      check_uninstrumented(args[1]);
    } else if (args.size() == 2 && args[0] == "threads") {
      check_threads(args[1]);
    } else if (args.size() == 2 && args[0] == "deep") {
      check_deep_recursion(args[1]);
    } else if (args.size() == 4 && args[0] == "partial") {
      check_partial(args[1], args[2], std::stoi(args[3]));
    } else if (args.size() == 2 && args[0] == "killed") {
      check_killed_writer(args[1]);
    } else if (args.size() == 3 && args[0] == "injection") {
      check_injection(args[1], args[2]);
    } else {
      std::fprintf(
          stderr,
          "usage: profile_check records|uninstrumented|threads|deep|killed DIR | count DIR N | "
          "partial DIR REASON RANK | injection PLAIN_DIR INJECTED_DIR\n");
      return 2;
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "FAILED: %s\n", error.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
