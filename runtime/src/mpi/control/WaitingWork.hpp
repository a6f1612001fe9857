// Work that the concerns above the control channel keep pending while a blocked call waits:
// deferred wildcard receives are decided there (requests/DeferredReceives.hpp). The wait loop
// and the deadlock check make it progress through this hook, so that control/ includes
// nothing above it. Installed once at MPI_Init, before the layer is active.
#pragma once

#include "mpi/stamps/StampProtocol.hpp"

#include "core/Monitor.hpp"

#include <atomic>

namespace vcmon::runtime::mpi {

class WaitingWork {
public:
  // `progress` may ask other ranks (its caller waits); true when there was work.
  using Progress = bool (*)(Monitor& monitor, StampProtocol& stamps);

  static void install(Progress progress) { progress_.store(progress, std::memory_order_release); }

  static bool progress(Monitor& monitor, StampProtocol& stamps) {
    const Progress progress = progress_.load(std::memory_order_acquire);
    return progress != nullptr && progress(monitor, stamps);
  }

private:
  static inline std::atomic<Progress> progress_{nullptr};
};

} // namespace vcmon::runtime::mpi
