// What this process had taken out of the stamps' transports from each rank of MPI_COMM_WORLD at
// the instant a wildcard decision looked at its candidates: how many stamps (StampCounts) and
// the bound they and earlier replies set (SenderBounds). Read under the same hold as the
// candidates. The decider files stamps while it waits for state replies; a stamp filed then is
// no candidate, so neither its count nor its send time may speak for its sender: a later stamp
// of the same sender raised the sender's bound past the candidate taken while its earlier
// message, already here, was overlooked (wildcard_random_cycle, about 1 run in 10).
#pragma once

#include "mpi/stamps/SenderBounds.hpp"
#include "mpi/stamps/StampCounts.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vcmon::runtime::mpi {

class ReceivedSoFar {
public:
  // Reads every rank's count and bound; the caller holds the stamps' lock (StampProtocol::Hold).
  // Reuses this object's storage: no allocation once grown.
  void read(const StampCounts& counts, const SenderBounds& bounds, int world_size) {
    stamps_.resize(static_cast<std::size_t>(world_size));
    bounds_.resize(static_cast<std::size_t>(world_size));
    for (int rank = 0; rank < world_size; ++rank) {
      stamps_[static_cast<std::size_t>(rank)] = counts.received_from(rank);
      bounds_[static_cast<std::size_t>(rank)] = bounds.of(rank);
    }
  }

  int world_size() const { return static_cast<int>(stamps_.size()); }
  std::uint64_t stamps_from(int rank) const { return at(stamps_, rank); }
  std::uint64_t bound_of(int rank) const { return at(bounds_, rank); }

private:
  static std::uint64_t at(const std::vector<std::uint64_t>& values, int rank) {
    return rank >= 0 && static_cast<std::size_t>(rank) < values.size()
               ? values[static_cast<std::size_t>(rank)]
               : 0;
  }

  std::vector<std::uint64_t> stamps_;
  std::vector<std::uint64_t> bounds_;
};

} // namespace vcmon::runtime::mpi
