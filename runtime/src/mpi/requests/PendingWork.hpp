// What the layer left pending for later calls to settle, per process: the deferred corrections
// of its own requests (LayerRequests), the receives the program freed while active
// (OrphanedReceives), the wildcard receives it defers until decided (DeferredReceives) and the
// program's wildcard receives posted to MPI as they are (PostedWildcards), with the stamp
// protocol they settle against. Every LayerWork scope settles them on entry; a blocked call lets
// them progress as it waits (WaitingWork), and a receive waiting for a stamp that a wildcard
// receive holds back settles those that matched (StampProtocol::Settler). The LayerContext owns
// the process's; a test makes two side by side, as two ranks' (tests/mpi/PendingWorkTest.cpp).
#pragma once

#include "mpi/control/WaitingWork.hpp"
#include "mpi/requests/DeferredReceives.hpp"
#include "mpi/requests/LayerRequests.hpp"
#include "mpi/requests/PostedWildcards.hpp"
#include "mpi/requests/RequestCompletion.hpp"
#include "mpi/stamps/StampProtocol.hpp"

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) PendingWork final : public WaitingWork,
                                                                StampProtocol::Settler {
public:
  explicit PendingWork(StampProtocol& stamps)
      : stamps(stamps), deferred(stamps), posted_wildcards(stamps) {
    stamps.settled_by(this);
  }
  ~PendingWork() { stamps.settled_by(nullptr); }
  PendingWork(const PendingWork&) = delete;
  PendingWork& operator=(const PendingWork&) = delete;

  bool progress_waiting(Monitor& monitor, StampProtocol& protocol) override {
    const bool settled = posted_wildcards.settle_matched();
    return deferred.progress_waiting(monitor, protocol) || settled;
  }
  void settle_matched() override {
    deferred.settle_matched();
    posted_wildcards.settle_matched();
  }

  StampProtocol& stamps;
  LayerRequests layer_requests;
  OrphanedReceives orphans;
  DeferredReceives deferred;
  PostedWildcards posted_wildcards;
};

} // namespace vcmon::runtime::mpi
