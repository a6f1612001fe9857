#include "core/YieldingCompletion.hpp"

#include <sched.h>

namespace vcmon::runtime {

int complete_yielding(MPI_Request& request, MPI_Status* status) {
  for (;;) {
    int done = 0;
    const int rc = PMPI_Test(&request, &done, status);
    if (rc != MPI_SUCCESS || done) {
      return rc;
    }
    sched_yield();
  }
}

} // namespace vcmon::runtime
