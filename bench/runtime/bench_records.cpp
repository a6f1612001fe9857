// Record memory (docs/runtime.md, "Benchmarks"): the memory records take for 10 000 sites, that
// it does not change after 10^8 probe events, and what 100 000 calling contexts add. A driver
// printing one table; memory is the process's anonymous resident memory, so it counts everything
// the monitor allocated or touched.
#include "vcmon/probes.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace {

// Anonymous resident memory, from the page tables (/proc/self/smaps_rollup, "Anonymous:"):
// what allocations and touched records take, without the program's own code paging in.
// /proc/self/statm would do, but on current kernels it reads per-CPU counters that lag by a
// few pages. Read with a stack buffer and no allocation, so that measuring does not move it.
std::uint64_t anonymous_kib() {
  char text[4096] = {};
  const int fd = ::open("/proc/self/smaps_rollup", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return 0;
  }
  std::size_t length = 0;
  ssize_t got = 0;
  while (length < sizeof text - 1 &&
         (got = ::read(fd, text + length, sizeof text - 1 - length)) > 0) {
    length += static_cast<std::size_t>(got);
  }
  ::close(fd);
  const char* field = std::strstr(text, "\nAnonymous:");
  unsigned long long kib = 0;
  return field != nullptr && std::sscanf(field, "\nAnonymous: %llu kB", &kib) == 1 ? kib : 0;
}

// 10 000 sites in the proportions of a real program: per procedure, one call site calling it,
// one loop and one communication statement inside it.
constexpr unsigned kProcedures = 2500;
constexpr unsigned kSites = 4 * kProcedures;

struct Unit {
  std::vector<std::string> names;
  std::vector<vcmon_site_desc> sites;
  vcmon_unit_desc desc{};
};

Unit make_unit() {
  Unit unit;
  unit.names.reserve(kProcedures);
  unit.sites.reserve(kSites);
  for (unsigned p = 0; p < kProcedures; ++p) {
    unit.names.push_back("proc" + std::to_string(p));
    const int proc = static_cast<int>(unit.sites.size());
    const char* name = unit.names.back().c_str();
    const unsigned line = 10 * p + 1;
    unit.sites.push_back({VCMON_SITE_PROCEDURE, line, 1, -1, name, name, VCMON_PROBING_TIMED});
    unit.sites.push_back({VCMON_SITE_CALL, line + 1, 3, proc, name, name, VCMON_PROBING_TIMED});
    unit.sites.push_back({VCMON_SITE_LOOP, line + 2, 3, proc, "for", "", VCMON_PROBING_TIMED});
    unit.sites.push_back(
        {VCMON_SITE_COMM, line + 3, 5, proc + 2, "MPI_Send", "", VCMON_PROBING_TIMED});
  }
  unit.desc = {VCMON_PROBE_ABI_VERSION, "bench_records.cpp", kSites, unit.sites.data()};
  return unit;
}

// One activation of procedure p through its call site, with a loop of one iteration and its
// communication statement: 9 probe events.
void activate(unsigned base, unsigned p) {
  const unsigned proc = base + 4 * p;
  vcmon_call_enter(proc + 1);
  vcmon_proc_enter(proc);
  vcmon_loop_enter(proc + 2);
  vcmon_loop_iter(proc + 2);
  vcmon_comm_enter(proc + 3);
  vcmon_comm_exit(proc + 3);
  vcmon_loop_exit(proc + 2);
  vcmon_proc_exit(proc);
  vcmon_call_exit(proc + 1);
}

constexpr unsigned kEventsPerActivation = 9;

// The control: the same loop calling an empty function instead of the probes, to show what
// the measurement itself reads when nothing allocates.
[[gnu::noinline]] void activate_nothing(unsigned base, unsigned p) {
  asm volatile("" : : "r"(base), "r"(p) : "memory");
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

} // namespace

int main() {
  // Static: registered tables live as long as the program, as the preprocessor's do.
  static const Unit unit = make_unit();
  const std::uint64_t before_monitor = anonymous_kib();
  unsigned base = 0;
  vcmon_register_unit(&unit.desc, &base);
  const std::uint64_t registered = anonymous_kib();
  for (unsigned p = 0; p < kProcedures; ++p) {
    activate(base, p);
  }
  const std::uint64_t with_records = anonymous_kib();

  constexpr std::uint64_t kEvents = 100'000'000;
  const std::uint64_t activations = kEvents / kEventsPerActivation + 1;
  const double cpu_start = cpu_seconds();
  for (std::uint64_t a = 0; a < activations; ++a) {
    activate(base, static_cast<unsigned>(a % kProcedures));
  }
  const double cpu = cpu_seconds() - cpu_start;
  const std::uint64_t after_events = anonymous_kib();
  for (std::uint64_t a = 0; a < activations; ++a) {
    activate_nothing(base, static_cast<unsigned>(a % kProcedures));
  }
  const std::uint64_t after_control = anonymous_kib();

  // Nearly 100 000 calling contexts (the default VCMON_MAX_CONTEXTS) over the same sites: a
  // quarter of the activations above again under each of 35 procedures (4 new contexts per
  // activation), besides the 10 000 contexts of the first pass.
  constexpr unsigned kEnclosing = 35;
  for (unsigned q = 0; q < kEnclosing; ++q) {
    const unsigned enclosing = base + 4 * q;
    vcmon_call_enter(enclosing + 1);
    vcmon_proc_enter(enclosing);
    for (unsigned p = 0; p < kProcedures / 4; ++p) {
      activate(base, kProcedures / 4 + p);
    }
    vcmon_proc_exit(enclosing);
    vcmon_call_exit(enclosing + 1);
  }
  const std::uint64_t with_contexts = anonymous_kib();

  std::printf("%-52s %12s\n", "measure", "value");
  std::printf("%-52s %12u\n", "sites (procedures, calls, loops, comms)", kSites);
  std::printf("%-52s %9llu KiB\n", "anonymous memory before the monitor",
              static_cast<unsigned long long>(before_monitor));
  std::printf("%-52s %9llu KiB\n", "monitor + its copy of the static tables",
              static_cast<unsigned long long>(registered - before_monitor));
  std::printf("%-52s %9llu KiB\n", "records, every site used once",
              static_cast<unsigned long long>(with_records - registered));
  std::printf("%-52s %9.1f B\n", "  records per site",
              static_cast<double>(with_records - registered) * 1024.0 / kSites);
  std::printf("%-52s %12llu\n", "probe events then run",
              static_cast<unsigned long long>(activations * kEventsPerActivation));
  std::printf("%-52s %9.2f ns\n", "  CPU time per event",
              cpu * 1e9 / static_cast<double>(activations * kEventsPerActivation));
  std::printf("%-52s %+9lld KiB\n", "anonymous memory change over those events",
              static_cast<long long>(after_events) - static_cast<long long>(with_records));
  std::printf("%-52s %+9lld KiB\n", "  control: same loop without probes",
              static_cast<long long>(after_control) - static_cast<long long>(after_events));
  std::printf("%-52s %12u\n", "calling contexts in all",
              kSites + kEnclosing * 4 * (kProcedures / 4));
  std::printf("%-52s %+9lld KiB\n", "  anonymous memory change for them",
              static_cast<long long>(with_contexts) - static_cast<long long>(after_control));
  std::printf("%-52s %9llu KiB\n", "monitor and records in all",
              static_cast<unsigned long long>(with_contexts - before_monitor));
  return after_events == with_records ? 0 : 1;
}
