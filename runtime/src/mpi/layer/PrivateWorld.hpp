// The layer's one private duplicate of MPI_COMM_WORLD for its own traffic, made at MPI_Init:
// stamps sent as messages (StampMail), the control channel (ControlChannel) and the gathers of
// records (the profile, collective snapshots). Each MPICH duplicate cost 8-16 ms of a 4-rank
// start-up on two cores, and there were three. The profile writer uses it too (collectives,
// MPI-IO, and its tags from 16 on). Their point-to-point messages keep apart by
// tag (below); their collectives run in program order on every rank (start-up, the control
// channel's last exchange, gathers), so they never meet either.
#pragma once

#include <mpi.h>

namespace vcmon::runtime::mpi {

enum PrivateTag : int {
  kStampTag = 0,        // StampMail: a stamp that did not go through shared memory
  kStateRequestTag = 1, // ControlChannel: a deadlock check asks for a rank's state
  kStateReplyTag = 2,   // ... and the rank answers
  kNullMessageTag = 3,  // ... a lower bound on the virtual time of a rank's next send
  // 16 and up: the profile writer's (core/ProfileTags.hpp)
};

class PrivateWorld {
public:
  // At MPI_Init, collective over MPI_COMM_WORLD; errors return (the layer checks its own).
  static void open();
  static MPI_Comm comm() { return comm_; }

private:
  static inline MPI_Comm comm_ = MPI_COMM_NULL;
};

} // namespace vcmon::runtime::mpi
