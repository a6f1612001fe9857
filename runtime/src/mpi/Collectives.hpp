// Collectives synchronise virtual time (DESIGN.md §5): every participant leaves at the latest
// participant's virtual entry plus the operation's own cost. The layer reduces the entry
// moments (virtual and real, MPI_MAX) on the shadow communicator: before the user's blocking
// collective, or as a nonblocking reduction posted with the user's nonblocking one and tracked
// with its request. Collectives may synchronise in MPI, so the extra reduction changes no
// correct program's outcome.
#pragma once

#include "mpi/ClockUpdate.hpp"
#include "mpi/ControlChannel.hpp"
#include "mpi/Layer.hpp"
#include "mpi/LayerRequests.hpp"
#include "mpi/LayerWork.hpp"
#include "mpi/Moment.hpp"
#include "mpi/MpiFunctionTable.hpp"
#include "mpi/RequestTable.hpp"
#include "mpi/ShadowCommunicators.hpp"
#include "mpi/WaitPolicy.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>

namespace vcmon::runtime::mpi {

class Collectives {
public:
  // Bytes of this rank's block (`count` elements of `datatype`); 0 when not meaningful.
  template <typename Count> static std::uint64_t bytes_of(Count count, MPI_Datatype datatype) {
    MPI_Count size = 0;
    if (count <= 0 || datatype == MPI_DATATYPE_NULL ||
        PMPI_Type_size_c(datatype, &size) != MPI_SUCCESS) {
      return 0;
    }
    return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
  }

  // `bytes()` is evaluated only when monitoring.
  template <typename Bytes, typename Call>
  static int blocking(MpiFunction function, MPI_Comm comm, Bytes&& bytes, Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const Shadow* shadow = monitor != nullptr ? ShadowCommunicators::find(comm) : nullptr;
    if (shadow == nullptr) {
      return pmpi();
    }
    tables::SiteId site;
    std::uint64_t block_bytes;
    Moment entry;
    std::uint64_t latest[2] = {0, 0};
    {
      LayerWork work(*monitor);
      site = monitor->comm_site(index_of(function));
      block_bytes = bytes();
      entry = Moment::now(monitor->clock());
      ControlChannel::serve_if_due(*monitor, entry);
    }
    // The entry reduction is nonblocking and polled: a member waiting for the others answers
    // the control channel meanwhile. Once it completed, every member is in the collective.
    const std::uint64_t mine[2] = {entry.vt, entry.rt};
    MPI_Request reduction = MPI_REQUEST_NULL;
    PMPI_Iallreduce(mine, latest, 2, MPI_UINT64_T, MPI_MAX, shadow->sync, &reduction);
    const CollectiveWait wait({index_of(function), site}, entry.vt, *shadow,
                              shadow->collectives_entered++);
    WaitPolicy::wait_until(*monitor, wait, [&] {
      int done = 0;
      PMPI_Test(&reduction, &done, MPI_STATUS_IGNORE);
      return done != 0;
    });
    // Everyone is there once the reduction returned: from here on the collective takes its
    // own time (the reduction itself is the layer's).
    const std::uint64_t start_rt = Moment::now(monitor->clock()).rt;
    const int rc = pmpi();
    const std::uint64_t end_ns = monitor->clock().source().now_ns();
    ClockUpdate update;
    LayerWork work(*monitor, end_ns, update);
    const std::uint64_t own = elapsed(start_rt, monitor->clock().real_at(end_ns));
    monitor->record_com(site, tables::ComRecord::kCollective, own, elapsed(entry.vt, latest[0]),
                        block_bytes);
    update.include(std::max(entry.vt, latest[0]) + own);
    return rc;
  }

  template <typename Bytes, typename Call>
  static int nonblocking(MpiFunction function, MPI_Comm comm, Bytes&& bytes, MPI_Request* request,
                         Call&& pmpi) {
    Monitor* monitor = Layer::monitor();
    const Shadow* shadow = monitor != nullptr ? ShadowCommunicators::find(comm) : nullptr;
    if (shadow == nullptr) {
      return pmpi();
    }
    TrackedRequest tracked;
    tracked.kind = TrackedRequest::Kind::Collective;
    tracked.shadow = shadow;
    tracked.sequence = shadow->collectives_entered++;
    {
      LayerWork work(*monitor);
      tracked.site = monitor->comm_site(index_of(function));
      tracked.post = Moment::now(monitor->clock());
      tracked.layer =
          &LayerRequests::post_collective_entry(*shadow, tracked.site, bytes(), tracked.post);
    }
    const int rc = pmpi();
    LayerWork work(*monitor);
    if (rc != MPI_SUCCESS || request_table().insert(*request, tracked) == nullptr) {
      LayerRequests::withdraw(*tracked.layer);
    }
    return rc;
  }
};

} // namespace vcmon::runtime::mpi
