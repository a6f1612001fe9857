// The offset of this rank's clock to rank 0's, measured at MPI_Init (Cristian's method): a
// rank sends a ping, rank 0 answers with its clock reading T, and the rank, which read t1
// before and t2 after, estimates offset = (t1 + t2) / 2 − T, with an error of at most half the
// round trip. So the round with the shortest round trip wins, and a rank keeps pinging until one
// is short or it has tried long enough. Rank 0 serves one rank after the other on the shadow of
// MPI_COMM_WORLD; the others wait for their turn and for the end sleeping, not spinning: on a node
// with fewer cores than ranks their spinning would stretch exactly the round trips being measured.
#pragma once

#include "vcmon/vclock/VirtualClock.hpp"

#include <mpi.h>

#include <cstdint>

namespace vcmon::runtime::mpi {

class ClockOffset {
public:
  static constexpr int kMinRounds = 8;
  static constexpr int kMaxRounds = 64;
  // A round trip this short bounds the error well below any interesting transfer time.
  static constexpr std::uint64_t kShortRoundTripNs = 20'000;

  // This rank's clock minus rank 0's at the same instant (0 on rank 0). Collective over `comm`.
  static std::int64_t estimate(MPI_Comm comm, const vclock::VirtualClock& clock);
};

} // namespace vcmon::runtime::mpi
