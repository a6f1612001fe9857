// The stamp of a nonblocking receive from a specific source, claimed when the receive is
// posted. MPI matches posted receives of one (source, communicator, tag) in the order they
// were posted; claiming stamps in that same order keeps each with its data even when a
// blocking receive, a probe or a wildcard decision comes between the post and the
// completion (a blocking receive posted later used to take the earlier message's stamp).
#pragma once

#include "mpi/StampInbox.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {

struct PostedStamp {
  enum class State : unsigned char {
    None,    // not claimed (a wildcard, a matched-probe receive): taken at completion
    Pending, // its receive is posted on the shadow
    Held     // taken from the shadow's inbox at post time
  };
  State state = State::None;
  MPI_Request request = MPI_REQUEST_NULL;
  PendingStamp entry;
};

} // namespace vcmon::runtime::mpi
