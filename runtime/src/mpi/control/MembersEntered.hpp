// Whether every member of a communicator has entered one of its collectives, polled. The
// layer's entry operation on the communicator's shadow (a barrier, or the entry reduction)
// completes once the other members have entered it. On an intercommunicator MPI promises that
// for the remote group only (MPICH's algorithms also wait for the local one, but not all of
// them), so a second round, a barrier over the shadow, follows there: a member completes it
// once every remote member has completed the first round, which each could only once every
// local member had entered. What CollectiveWait reports, both groups, is then true.
#pragma once

#include "mpi/stamps/ShadowCommunicators.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {

class MembersEntered {
public:
  // `entry`: the layer's entry operation on `shadow.duplicate`, started.
  MembersEntered(const Shadow& shadow, MPI_Request entry) : shadow_(shadow), request_(entry) {}
  MembersEntered(const MembersEntered&) = delete;
  MembersEntered& operator=(const MembersEntered&) = delete;

  // The round in flight, for CollectiveWait.
  const MPI_Request& request() const { return request_; }

  bool poll() {
    int done = 0;
    PMPI_Test(&request_, &done, MPI_STATUS_IGNORE);
    if (done == 0) {
      return false;
    }
    if (shadow_.inter && !second_round_) {
      second_round_ = true;
      PMPI_Ibarrier(shadow_.duplicate, &request_);
      return false;
    }
    return true;
  }

private:
  const Shadow& shadow_;
  MPI_Request request_;
  bool second_round_ = false;
};

} // namespace vcmon::runtime::mpi
