// Waiting for a request the layer posted in the program's place and does not track (a
// collective write's nonblocking twin, an entry barrier): polled by MPI_Test in the layer's
// wait loop, where the process answers state requests as running, its clock going on (the wait
// is the program's own time). Blocked in MPI instead, it would answer nothing, and a wildcard
// decision that had to rule it out would wait for it forever where no thread answers for it (a
// rank on another node).
#pragma once

#include "mpi/control/WaitPolicy.hpp"
#include "mpi/requests/RequestsWait.hpp"
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
