// Whether the PMPI layer monitors: only between the end of MPI_Init and the start of
// MPI_Finalize, and only when the monitor is enabled. Otherwise every wrapper is a plain
// call of its PMPI twin.
#pragma once

#include "core/Monitor.hpp"

#include <atomic>

namespace vcmon::runtime::mpi {

class Layer {
public:
  // The monitor while the layer is active, else nullptr. One atomic load.
  static Monitor* monitor() { return monitor_.load(std::memory_order_acquire); }

  static void activate(Monitor& monitor, int tag_ub) {
    tag_ub_ = tag_ub;
    monitor_.store(&monitor, std::memory_order_release);
  }
  static void deactivate() { monitor_.store(nullptr, std::memory_order_release); }

  // MPI_TAG_UB: the largest tag the user may send (the layer validates before it stamps).
  static int tag_ub() { return tag_ub_; }

private:
  static inline std::atomic<Monitor*> monitor_{nullptr};
  static inline int tag_ub_ = 0;
};

} // namespace vcmon::runtime::mpi
