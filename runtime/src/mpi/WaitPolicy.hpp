// The one place that decides how the layer waits for another process inside a blocking MPI
// call (Recv, Probe, Mprobe, Wait*, blocking sends and Sendrecv). Today it simply lets PMPI
// block. Wildcard decisions and cycle breaking (DESIGN.md §6–§7) need blocked ranks to answer
// control requests: this becomes "post nonblocking, poll with sched_yield, serve the control
// channel", without touching the wrappers.
#pragma once

#include <utility>

namespace vcmon::runtime::mpi {

class WaitPolicy {
public:
  template <typename BlockingCall> static int block(BlockingCall&& call) {
    return std::forward<BlockingCall>(call)();
  }
};

} // namespace vcmon::runtime::mpi
