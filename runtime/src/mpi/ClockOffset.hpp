// The offset of this rank's clock to rank 0's, measured at MPI_Init (Cristian's method):
// a rank sends a ping, rank 0 answers with its clock reading T, and the rank, which read t1
// before and t2 after, estimates offset = (t1 + t2) / 2 − T. The error is at most half the
// round trip, so of a few rounds the one with the shortest round trip wins. Rank 0 serves the
// ranks one after another on the shadow of MPI_COMM_WORLD.
#pragma once

#include "vcmon/vclock/VirtualClock.hpp"

#include <mpi.h>

#include <cstdint>

namespace vcmon::runtime::mpi {

class ClockOffset {
public:
  static constexpr int kRounds = 8;

  // This rank's clock minus rank 0's at the same instant (0 on rank 0). Collective over `comm`.
  static std::int64_t estimate(MPI_Comm comm, const vclock::VirtualClock& clock);
};

} // namespace vcmon::runtime::mpi
