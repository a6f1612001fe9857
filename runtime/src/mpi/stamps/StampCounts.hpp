// Stamps sent to and received from each rank of MPI_COMM_WORLD, over all communicators. A null
// message (VCMON_DEADLOCK=nullmsg) travels on the control channel, which MPI does not order
// with the stamps: it carries how many stamps its sender had sent, and its bound holds only once
// that many have arrived (Chandy–Misra needs FIFO channels). One per process, in its
// StampProtocol.
#pragma once

#include "mpi/layer/CallerCounters.hpp"

#include <atomic>
#include <cstdint>
#include <memory>

namespace vcmon::runtime::mpi {

class StampCounts {
public:
  // Counts with `world_size` ranks, all 0.
  explicit StampCounts(int world_size)
      : sent_(std::make_unique<std::atomic<std::uint64_t>[]>(static_cast<std::size_t>(world_size))),
        received_(
            std::make_unique<std::atomic<std::uint64_t>[]>(static_cast<std::size_t>(world_size))),
        size_(world_size) {}
  void sent(int rank) { bump(sent_, rank); }
  void received(int rank) { bump(received_, rank); }
  std::uint64_t sent_to(int rank) const { return read(sent_, rank); }
  std::uint64_t received_from(int rank) const { return read(received_, rank); }

private:
  using Counters = std::unique_ptr<std::atomic<std::uint64_t>[]>;
  void bump(Counters& counters, int rank) {
    if (rank >= 0 && rank < size_) {
      CallerCounters::increment(counters[static_cast<std::size_t>(rank)]);
    }
  }
  std::uint64_t read(const Counters& counters, int rank) const {
    return rank >= 0 && rank < size_
               ? counters[static_cast<std::size_t>(rank)].load(std::memory_order_relaxed)
               : 0;
  }
  Counters sent_;
  Counters received_;
  int size_;
};

} // namespace vcmon::runtime::mpi
