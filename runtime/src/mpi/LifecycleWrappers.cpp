// MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Abort: where the layer starts and stops.
// Start-up, after PMPI_Init: shadows for MPI_COMM_WORLD and MPI_COMM_SELF, the clock offset
// to rank 0 (the core then reads every clock in rank 0's time base), and one reduction so
// that all ranks leave MPI_Init at the same virtual time, the latest rank's (MPI_Init is
// collective: DESIGN.md §5's rule for collectives).
#include "mpi/CallerCounters.hpp"
#include "mpi/ClockOffset.hpp"
#include "mpi/CollectiveEntry.hpp"
#include "mpi/ControlChannel.hpp"
#include "mpi/DeferredReceives.hpp"
#include "mpi/Layer.hpp"
#include "mpi/LayerRequests.hpp"
#include "mpi/RequestCompletion.hpp"
#include "mpi/ShadowCommunicators.hpp"
#include "mpi/StampMail.hpp"
#include "mpi/WildcardTrace.hpp"

#include "core/Monitor.hpp"

#include <mpi.h>

#include <string>

namespace vcmon::runtime::mpi {
namespace {

int tag_upper_bound() {
  int* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
  return found && value != nullptr ? *value : 32767; // 32767: the least MPI guarantees
}

void start_layer() {
  Monitor& monitor = Monitor::instance();
  if (!monitor.enabled()) {
    return;
  }
  vclock::VirtualClock& clock = monitor.clock();
  std::uint64_t latest_vt = 0;
  {
    vclock::IntrusionScope work(clock, monitor.action_cost_ns());
    int rank = 0;
    int size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    monitor.on_mpi_init(rank, size);
    int provided = MPI_THREAD_MULTIPLE;
    PMPI_Query_thread(&provided);
    CallerCounters::set_concurrent_callers(provided == MPI_THREAD_MULTIPLE);
    clock.set_concurrent_writers(provided == MPI_THREAD_MULTIPLE);
    ControlChannel::open(monitor);
    CollectiveEntry::open();
    StampMail::open(monitor.config().stamp_ring_slots);
    WildcardTrace::open(monitor);
    ShadowCommunicators::attach_predefined();
    const Shadow& world = *ShadowCommunicators::find(MPI_COMM_WORLD);
    monitor.set_clock_offset(ClockOffset::estimate(world.duplicate, clock));
    const std::uint64_t mine = clock.virtual_ns();
    PMPI_Allreduce(&mine, &latest_vt, 1, MPI_UINT64_T, MPI_MAX, world.duplicate);
  }
  clock.continue_from(latest_vt);
  Layer::activate(monitor, tag_upper_bound());
}

} // namespace
} // namespace vcmon::runtime::mpi

using namespace vcmon::runtime;
using namespace vcmon::runtime::mpi;

extern "C" int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) {
    start_layer();
  }
  return rc;
}

extern "C" int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) {
    start_layer();
  }
  return rc;
}

extern "C" int MPI_Finalize() {
  if (Monitor* monitor = Layer::monitor()) {
    {
      vcmon::vclock::IntrusionScope work(monitor->clock(), monitor->action_cost_ns());
      DeferredReceives::post_all_undecided();
      ControlChannel::finish(*monitor);
    }
    Layer::deactivate();
    RequestCompletion::poll_orphans(*monitor);
    RequestCompletion::free_orphans();
    LayerRequests::finish_all(*monitor);
    CollectiveEntry::close();
    WildcardTrace::close();
    monitor->on_mpi_finalize();
    StampMail::close();
  }
  return PMPI_Finalize();
}

extern "C" int MPI_Abort(MPI_Comm comm, int errorcode) {
  if (Monitor* monitor = Layer::monitor()) {
    Layer::deactivate();
    monitor->on_abort("MPI_Abort with error code " + std::to_string(errorcode));
  }
  return PMPI_Abort(comm, errorcode);
}
