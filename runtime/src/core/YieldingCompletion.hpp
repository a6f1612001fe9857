// The monitor's own MPI operations (its collectives at MPI_Init, MPI_Finalize and communicator
// creation, its clock-offset exchange): started nonblocking and completed by testing with a
// sched_yield between tests. MPICH's blocking calls spin without yielding, so with more ranks
// than cores each such call lasted whole scheduler slices: a reduction took 6 ms and a
// communicator duplicate 9 ms at 4 ranks on 2 cores, against 0.1 ms and 0.3-1 ms yielding.
#pragma once

#include <mpi.h>

namespace vcmon::runtime {

// Tests `request` until it completes, yielding between tests; MPI's error code.
int complete_yielding(MPI_Request& request, MPI_Status* status = MPI_STATUS_IGNORE);

// Starts a nonblocking MPI operation (PMPI_Iallreduce, PMPI_Comm_idup...) with `arguments`
// and a request, then completes it yielding: the blocking operation's effect and error code.
template <typename Start, typename... Arguments> int yielding(Start start, Arguments... arguments) {
  MPI_Request request = MPI_REQUEST_NULL;
  const int rc = start(arguments..., &request);
  return rc != MPI_SUCCESS ? rc : complete_yielding(request);
}

} // namespace vcmon::runtime
