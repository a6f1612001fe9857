// What this process knows, without asking, about when each rank of MPI_COMM_WORLD can send
// next (docs/deadlock.md, "Keep known bounds"): the send stamp of every message taken from it,
// the clocks its state replies carried, the bounds its null messages announced. Bounds only
// grow. A wildcard decision compares them with the candidates' arrivals. One per process, in
// its StampProtocol.
#pragma once

#include "mpi/layer/CallerCounters.hpp"

#include <atomic>
#include <cstdint>
#include <memory>

namespace vcmon::runtime::mpi {

class SenderBounds {
public:
  // Bounds of `world_size` ranks, all 0 (before any stamp is taken).
  explicit SenderBounds(int world_size)
      : bounds_(
            std::make_unique<std::atomic<std::uint64_t>[]>(static_cast<std::size_t>(world_size))),
        size_(world_size) {}

  std::uint64_t of(int world_rank) const {
    return valid(world_rank)
               ? bounds_[static_cast<std::size_t>(world_rank)].load(std::memory_order_relaxed)
               : 0;
  }

  // True when the bound grew.
  bool raise(int world_rank, std::uint64_t bound) {
    if (!valid(world_rank)) {
      return false;
    }
    return CallerCounters::raise(bounds_[static_cast<std::size_t>(world_rank)], bound);
  }

private:
  bool valid(int world_rank) const { return world_rank >= 0 && world_rank < size_; }
  std::unique_ptr<std::atomic<std::uint64_t>[]> bounds_;
  int size_;
};

} // namespace vcmon::runtime::mpi
