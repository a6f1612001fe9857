// Work that the concerns above the control channel keep pending while a blocked call waits:
// deferred wildcard receives are decided there (requests/DeferredReceives.hpp, which is one).
// The process's ControlChannel is given it at MPI_Init, and the wait loop and the deadlock check
// make it progress through the channel, so that control/ includes nothing above it.
#pragma once

#include "mpi/stamps/StampProtocol.hpp"

#include "core/Monitor.hpp"

namespace vcmon::runtime::mpi {

class WaitingWork {
public:
  // May ask other ranks (its caller waits); true when there was work.
  virtual bool progress_waiting(Monitor& monitor, StampProtocol& stamps) = 0;

protected:
  ~WaitingWork() = default;
};

} // namespace vcmon::runtime::mpi
