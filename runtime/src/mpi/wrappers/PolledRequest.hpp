// Waiting for a request the layer posted in the program's place and does not track (a
// collective write's nonblocking twin, an entry barrier, a send on an unshadowed communicator),
// or for a message on an unshadowed communicator: polled by MPI_Test (MPI_Iprobe) in the layer's
// wait loop, where the process answers state requests as running, its clock going on (the wait
// is the program's own time). Blocked in MPI instead, it would answer nothing, and a wildcard
// decision that had to rule it out would wait for it forever where no thread answers for it (a
// rank on another node).
#pragma once

#include "mpi/control/BlockedCall.hpp"
#include "mpi/control/WaitPolicy.hpp"
#include "mpi/requests/RequestsWait.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {

// Returns what the MPI_Test that completed `request` (or failed) returned.
inline int wait_polled(Monitor& monitor, LayerContext& context, MPI_Request& request,
                       MPI_Status* status) {
  const RequestsWait wait(context.pending, context.requests, {~0u, tables::kNoSite},
                          vclock::Moment::now(monitor.clock()).vt, {&request, 1},
                          RequestsWait::Needs::All);
  int tested = MPI_SUCCESS;
  WaitPolicy::wait_until(monitor, context.control, wait, [&] {
    int done = 0;
    tested = PMPI_Test(&request, &done, status);
    return tested != MPI_SUCCESS || done != 0;
  });
  return tested;
}

// Starts `start(MPI_Request*)`, a blocking call's nonblocking twin, and waits for it polled:
// the blocking call's effect and error code.
template <typename Start> int run_polled(Monitor& monitor, LayerContext& context, Start&& start) {
  MPI_Request request = MPI_REQUEST_NULL;
  const int rc = start(&request);
  return rc != MPI_SUCCESS ? rc : wait_polled(monitor, context, request, MPI_STATUS_IGNORE);
}

// Before a blocking receive or probe of `source` and `tag` on `comm`, which the layer does not
// monitor: when `comm` is unshadowed (UnshadowedCommunicators, so a communicator MPI knows) and
// MPI accepts `source` and `tag`, waits polled by MPI_Iprobe until a message they match has
// arrived, so that the call then takes it without waiting. The call itself stays the
// program's, with its own errors (a truncated message, a bad buffer).
inline void await_unshadowed_message(Monitor& monitor, LayerContext& context, int source, int tag,
                                     MPI_Comm comm) {
  if (source == MPI_PROC_NULL || !context.unshadowed.contains(comm)) {
    return;
  }
  int peers = 0;
  PMPI_Comm_size(comm, &peers);
  if (!StampProtocol::receivable(peers, 0, MPI_BYTE, source, tag)) {
    return;
  }
  const UnmonitoredWait wait({~0u, tables::kNoSite}, vclock::Moment::now(monitor.clock()).vt);
  WaitPolicy::wait_until(monitor, context.control, wait, [&] {
    int arrived = 0;
    PMPI_Iprobe(source, tag, comm, &arrived, MPI_STATUS_IGNORE);
    return arrived != 0;
  });
}

// Until every member of `comm`, an unshadowed communicator (UnshadowedCommunicators), has
// entered the collective this process is about to call on it: a nonblocking barrier on `comm`
// itself, which every member adds at the same place. Once it completed, the collective
// completes without waiting for anyone outside it.
inline void enter_unshadowed(Monitor& monitor, LayerContext& context, MPI_Comm comm) {
  MPI_Request entry = MPI_REQUEST_NULL;
  if (PMPI_Ibarrier(comm, &entry) == MPI_SUCCESS) {
    wait_polled(monitor, context, entry, MPI_STATUS_IGNORE);
  }
}

} // namespace vcmon::runtime::mpi
