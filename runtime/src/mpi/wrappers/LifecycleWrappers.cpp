// MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Abort: where the layer starts and stops; and
// MPI_Session_init, which says when it will not start.
// Start-up, after PMPI_Init: the settings the ranks must share (every rank, monitored or not),
// shadows for MPI_COMM_WORLD and MPI_COMM_SELF, the clock offset to rank 0 (the core then reads
// every clock in one time base: rank 0's, moved back to the earliest rank's start), and one
// reduction so that all ranks leave MPI_Init at the same virtual time, the latest rank's return
// from PMPI_Init (MPI_Init is collective: docs/design.md, "Virtual time of a collective").
// Shutdown, before PMPI_Finalize: the control channel's last exchange, which also finds the latest
// rank's entry into MPI_Finalize, then the profile. Both are the monitor's work, all intrusion:
// MPI_Init and MPI_Finalize are statements (synthetic comm sites) holding PMPI_Init's own time and
// the waiting for the latest rank; PMPI_Finalize runs after the profile is taken.
#include "core/MpiFunctionTable.hpp"
#include "mpi/clock/ClockOffset.hpp"
#include "mpi/control/CollectiveEntry.hpp"
#include "mpi/layer/CallerCounters.hpp"
#include "mpi/layer/JobSettings.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/layer/PrivateWorld.hpp"
#include "mpi/requests/PendingWork.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/wrappers/LayerContext.hpp"

#include "core/Log.hpp"
#include "core/Monitor.hpp"
#include "core/YieldingCompletion.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>

namespace vcmon::runtime::mpi {
namespace {

int tag_upper_bound() {
  int* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
  return found && value != nullptr ? *value : 32767; // 32767: the least MPI guarantees
}

// Every rank leaves `function` (MPI_Init, MPI_Finalize) at `latest_vt`, the latest rank's
// arrival at a point they all pass, as from a collective; this rank arrived at `arrived_vt`.
// The statement holds `own_ns` of the MPI library's time and the waiting, up to where the
// clock continued (never ahead of real time: clock offsets are estimates).
void leave_together(Monitor& monitor, MpiFunction function, std::uint64_t own_ns,
                    std::uint64_t arrived_vt, std::uint64_t latest_vt) {
  vclock::VirtualClock& clock = monitor.clock();
  clock.continue_from(latest_vt);
  const std::uint64_t left_ns = clock.source().now_ns();
  const std::uint64_t left_vt = clock.virtual_at(left_ns);
  const vclock::IntrusionScope work(clock, monitor.action_cost_ns(), left_ns);
  monitor.record_com(monitor.comm_site(index_of(function)), tables::ComRecord::kCollective, own_ns,
                     left_vt > arrived_vt ? left_vt - arrived_vt : 0, 0, false);
}

// Real milliseconds since the clock source read `since_ns`.
double elapsed_ms(const vclock::VirtualClock& clock, std::uint64_t since_ns) {
  return static_cast<double>(clock.source().now_ns() - since_ns) * 1e-6;
}

// The virtual time MPI_Init is called at; 0 when not monitoring.
std::uint64_t init_called_vt() {
  Monitor& monitor = Monitor::instance();
  return monitor.enabled() ? monitor.clock().virtual_ns() : 0;
}

// After PMPI_Init returned, which it was called at `called_vt`.
void start_layer(std::uint64_t called_vt) {
  keep_standard_error();
  Monitor& monitor = Monitor::instance();
  if (!monitor.enabled()) {
    agree_on_job_settings(monitor); // monitored ranks beside this one learn to stay unmonitored
    return;
  }
  vclock::VirtualClock& clock = monitor.clock();
  const std::uint64_t returned_ns = clock.source().now_ns();
  const std::uint64_t returned_rt = clock.real_at(returned_ns);
  const std::uint64_t returned_vt = clock.virtual_at(returned_ns);
  std::uint64_t latest_vt = 0;
  std::uint64_t arrived_vt = 0;
  bool concurrent_callers = true;
  {
    vclock::IntrusionScope work(clock, monitor.action_cost_ns(), returned_ns);
    if (!agree_on_job_settings(monitor)) {
      return;
    }
    int rank = 0;
    int size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    monitor.on_mpi_init(rank, size);
    int provided = MPI_THREAD_MULTIPLE;
    PMPI_Query_thread(&provided);
    concurrent_callers = provided == MPI_THREAD_MULTIPLE;
    CallerCounters::set_concurrent_callers(concurrent_callers);
    clock.set_concurrent_writers(concurrent_callers);
    PrivateWorld::open();
    LayerContext::open(monitor);
    LayerContext::process().entry_reduction.open();
    process_stamps().shadows().attach_predefined();
    const Shadow& world = *process_stamps().shadows().find(MPI_COMM_WORLD);
    // Rank r's clock minus rank 0's. The common time base starts at the earliest rank's start
    // (a rank that started before rank 0 would see its main entered at a negative time): each
    // rank says how far its own start lies before rank 0's, and the furthest sets the base.
    const std::int64_t offset = ClockOffset::measure(world.duplicate, monitor.clock_source(), clock,
                                                     monitor.config().test_estimate_offsets) -
                                monitor.config().test_offset_error_ns * rank;
    // PMPI_Init's return, and this rank's start, in rank 0's base (with the testing offset).
    const std::int64_t rebase =
        static_cast<std::int64_t>(clock.real_at(returned_ns) - returned_rt) - offset;
    const std::int64_t arrival[2] = {static_cast<std::int64_t>(returned_vt) + rebase, -rebase};
    std::int64_t latest[2] = {0, 0};
    yielding(PMPI_Iallreduce, arrival, latest, 2, MPI_INT64_T, MPI_MAX, world.duplicate);
    const std::int64_t lead = std::max<std::int64_t>(latest[1], 0);
    monitor.set_clock_offset(offset - lead);
    latest_vt = static_cast<std::uint64_t>(latest[0] + lead);
    arrived_vt = static_cast<std::uint64_t>(arrival[0] + lead);
  }
  leave_together(monitor, MpiFunction::Init, returned_vt - called_vt, arrived_vt, latest_vt);
  if (concurrent_callers) {
    // Threads that call MPI at once are charged each its own work (docs/runtime.md, "Threads").
    clock.start_thread_lanes();
  }
  Layer::activate(monitor, tag_upper_bound());
  {
    const vclock::IntrusionScope work(clock, monitor.action_cost_ns());
    LayerContext& context = LayerContext::process();
    context.answerer.start(monitor, context.control);
  }
  if (logging(LogLevel::Debug)) {
    log_line(LogLevel::Debug, "rank %d: start-up after PMPI_Init took %.1f ms",
             monitor.world_rank(), elapsed_ms(clock, returned_ns));
    const ProbeCosts& costs = monitor.probes().costs();
    log_line(LogLevel::Debug,
             "rank %d: a probe is charged %llu ns (timed), %llu ns (untimed), %llu ns (throttled)",
             monitor.world_rank(), static_cast<unsigned long long>(costs.timed_ns),
             static_cast<unsigned long long>(costs.untimed_ns),
             static_cast<unsigned long long>(costs.throttled_ns));
  }
}

} // namespace
} // namespace vcmon::runtime::mpi

using namespace vcmon::runtime;
using namespace vcmon::runtime::mpi;

extern "C" int MPI_Init(int* argc, char*** argv) {
  const std::uint64_t called_vt = init_called_vt();
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) {
    start_layer(called_vt);
  }
  return rc;
}

extern "C" int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const std::uint64_t called_vt = init_called_vt();
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) {
    start_layer(called_vt);
  }
  return rc;
}

extern "C" int MPI_Finalize() {
  if (Monitor* monitor = Layer::monitor()) {
    vcmon::vclock::VirtualClock& clock = monitor->clock();
    const std::uint64_t entry_ns = clock.source().now_ns();
    const std::uint64_t entry_vt = clock.virtual_at(entry_ns);
    std::uint64_t latest_vt = 0;
    {
      const vcmon::vclock::IntrusionScope work(clock, monitor->action_cost_ns(), entry_ns);
      LayerContext& context = LayerContext::process();
      PendingWork& pending = context.pending;
      pending.deferred.post_all_undecided();
      latest_vt = context.control.finish(*monitor, entry_vt);
      // Every rank is in MPI_Finalize: nobody waits for an answer any more.
      context.answerer.stop();
      // Every rank has entered MPI_Finalize, so every stamp has been sent; this takes those that
      // have arrived. Stamps that no receive needed (past the request table's capacity) would
      // otherwise stay in MPI's queue, which MPI (UCX) reports at PMPI_Finalize, one line per
      // message on the program's stdout.
      pending.stamps.drain();
      Layer::deactivate();
      pending.orphans.poll(*monitor, pending.stamps, pending.posted_wildcards);
      pending.orphans.free_all();
      pending.layer_requests.finish_all(*monitor);
      context.entry_reduction.close();
    }
    // The program waited for the latest rank to enter MPI_Finalize; the rest was the layer's.
    leave_together(*monitor, MpiFunction::Finalize, 0, entry_vt, latest_vt);
    monitor->on_mpi_finalize();
    if (logging(LogLevel::Debug)) {
      log_line(LogLevel::Debug, "rank %d: shutdown before PMPI_Finalize took %.1f ms",
               monitor->world_rank(), elapsed_ms(clock, entry_ns));
    }
    LayerContext::close();
  }
  return PMPI_Finalize();
}

// The layer starts at MPI_Init: a process that opens a session first works through
// communicators the layer never saw (no shadows, no stamps), and one that never calls MPI_Init
// writes a profile of its own with no MPI records. Both keep their behaviour; the user is told
// once, as the profile alone would not show it (docs/pmpi.md, "MPI sessions").
extern "C" int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session) {
  static std::atomic<bool> said{false};
  int initialized = 1;
  PMPI_Initialized(&initialized);
  if (!initialized && Monitor::instance().enabled() && !said.exchange(true)) {
    log_line(LogLevel::Warning,
             "MPI_Session_init before MPI_Init: vcmon monitors MPI from MPI_Init on, so the MPI "
             "calls of this process before then (all of them, without MPI_Init) are not "
             "recorded (docs/pmpi.md, \"MPI sessions\")");
  }
  return PMPI_Session_init(info, errhandler, session);
}

extern "C" int MPI_Abort(MPI_Comm comm, int errorcode) {
  if (Monitor* monitor = Layer::monitor()) {
    Layer::deactivate();
    monitor->on_abort("MPI_Abort with error code " + std::to_string(errorcode));
  }
  return PMPI_Abort(comm, errorcode);
}
