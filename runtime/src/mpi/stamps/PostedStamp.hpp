// The stamp of a nonblocking receive from a specific source, claimed when the receive is
// posted. MPI matches posted receives of one (source, communicator, tag) in the order they
// were posted; claiming stamps in that same order keeps each with its data even when a
// blocking receive, a probe or a wildcard decision comes between the post and the
// completion (a blocking receive posted later used to take the earlier message's stamp).
#pragma once

#include "mpi/stamps/StampInbox.hpp"

namespace vcmon::runtime::mpi {

struct PostedStamp {
  enum class State : unsigned char {
    None,    // not claimed (a wildcard, a matched-probe receive): taken at completion
    Pending, // in its shadow's claims, waiting for the stamp
    Held,    // the stamp is in `entry`
    Wildcard // a receive from MPI_ANY_SOURCE posted to MPI: in its shadow's claims, holding
             // back the stamps it may take until it matched (StampProtocol::hold_back)
  };
  State state = State::None;
  PendingStamp entry;
};

} // namespace vcmon::runtime::mpi
