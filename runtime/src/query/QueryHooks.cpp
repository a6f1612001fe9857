#include "query/QueryHooks.hpp"

#include "core/Log.hpp"
#include "core/Monitor.hpp"
#include "core/MonitorEvents.hpp"
#include "core/ProfileOutput.hpp"
#include "core/YieldingCompletion.hpp"
#include "query/LiveJob.hpp"
#include "query/PublishPeriod.hpp"
#include "query/RecordsExclusion.hpp"

#include <atomic>
#include <cstdio>
#include <mpi.h>
#include <unistd.h>

namespace vcmon::runtime::query {

LiveJob& live_job() {
  static LiveJob* const job = new LiveJob(); // never destroyed: exit handlers use it
  return *job;
}

std::mutex& live_job_mutex() {
  static std::mutex* const mutex = new std::mutex();
  return *mutex;
}

namespace {

// After PMPI_Init, on every rank (collective): learns the job id, removes stale segments of
// this user and starts live publication (VCMON_PUBLISH_MS).
void on_mpi_started(Monitor& monitor) {
  // The job id: rank 0's pid, the same on every rank and every node.
  long long job_id = ::getpid();
  yielding(PMPI_Ibcast, &job_id, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  const std::lock_guard lock(live_job_mutex());
  LiveJob& job = live_job();
  job.job_id = static_cast<std::uint64_t>(job_id);
  tables::remove_stale_live_segments(::getuid());
  const std::chrono::milliseconds period = publish_period(monitor.world_rank() == 0);
  if (period.count() == 0) {
    return;
  }
  tables::LiveSegmentIdentity identity;
  identity.key = {static_cast<std::uint32_t>(::getuid()), job.job_id, monitor.world_rank()};
  identity.ranks = monitor.world_size();
  identity.pid = ::getpid();
  identity.start_unix_ns = monitor.start_unix_ns();
  identity.program = program_name();
  try {
    job.publisher = new LivePublisher(monitor, identity, period);
  } catch (const std::exception& error) {
    log_line(LogLevel::Warning, "rank %d: no live publication: %s", monitor.world_rank(),
             error.what());
  }
}

// Before MPI_Finalize's gather, at MPI_Abort and at exit: stops publication and removes this
// rank's segment. Idempotent.
void on_mpi_ending() {
  const std::lock_guard lock(live_job_mutex());
  LiveJob& job = live_job();
  delete job.publisher;
  job.publisher = nullptr;
}

// How many publications every thread should have settled for; each thread's own count.
std::atomic<std::uint64_t> publication_round{0};
__thread std::uint64_t settled_round __attribute__((tls_model("initial-exec")));

} // namespace

void note_publication() {
  publication_round.fetch_add(1, std::memory_order_relaxed);
}

void settle_if_published(Monitor& monitor) {
  const std::uint64_t round = publication_round.load(std::memory_order_relaxed);
  if (round == settled_round) [[likely]] {
    return;
  }
  settled_round = round;
  // Up to the floor, not to the clock's reading: inside a layer scope the reading may still
  // hold a wait that continuing the clock takes back (the waiting becomes intrusion), and an
  // activation settled past where it then exits keeps time it did not take.
  monitor.probes().settle_open_activations(monitor.this_thread(), monitor.clock().floor_ns());
}

namespace {

// Takes out what MPI_Pcontrol excluded (levels 0 and 2) from records collected for a profile.
void apply_pcontrol(tables::RankRecords& records) {
  RecordsExclusion::instance().apply(records);
}

[[maybe_unused]] const bool subscribed = [] {
  MonitorEvents::subscribe({on_mpi_started, on_mpi_ending, apply_pcontrol});
  return true;
}();

} // namespace

} // namespace vcmon::runtime::query
