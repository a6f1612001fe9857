// What the layer left pending for later calls to settle, per process: the deferred corrections
// of its own requests (LayerRequests), the receives the program freed while active
// (OrphanedReceives) and the wildcard receives it defers until decided (DeferredReceives), with
// the stamp protocol they settle against. Every LayerWork scope settles them on entry. The
// LayerContext owns the process's; a test makes two side by side, as two ranks'
// (tests/mpi/PendingWorkTest.cpp).
#pragma once

#include "mpi/requests/DeferredReceives.hpp"
#include "mpi/requests/LayerRequests.hpp"
#include "mpi/requests/RequestCompletion.hpp"
#include "mpi/stamps/StampProtocol.hpp"

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) PendingWork {
public:
  explicit PendingWork(StampProtocol& stamps) : stamps(stamps), deferred(stamps) {}
  PendingWork(const PendingWork&) = delete;
  PendingWork& operator=(const PendingWork&) = delete;

  StampProtocol& stamps;
  LayerRequests layer_requests;
  OrphanedReceives orphans;
  DeferredReceives deferred;
};

} // namespace vcmon::runtime::mpi
