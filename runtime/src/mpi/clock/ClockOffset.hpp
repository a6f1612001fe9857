// The offset of this rank's clock to rank 0's, found at MPI_Init (docs/runtime.md, "Clock
// offsets").
//
// Ranks whose processes read one CLOCK_MONOTONIC (one host, one time namespace: a clock
// domain) compute it exactly: each reads its clock minus CLOCK_MONOTONIC, and two ranks'
// offset is the difference. A cycle-counter clock first adopts the rate of its domain's leader
// (its lowest rank), so that the offset stays what it was at MPI_Init: each process's own
// calibration differs by up to 1 µs per second, which a run would accumulate.
//
// Between domains the leaders estimate their offset to rank 0 (Cristian's method): a leader
// sends a ping, rank 0 answers with its clock reading T, and the leader, which read t1 before
// and t2 after, estimates offset = (t1 + t2) / 2 − T, with an error of at most half the round
// trip. So the round with the shortest round trip wins, and a leader keeps pinging until one is
// short or it has tried long enough. Rank 0 serves one leader after the other; every other
// rank waits for the end sleeping, not spinning: on a node with fewer cores than ranks its
// spinning would stretch exactly the round trips being measured.
#pragma once

#include "vcmon/vclock/ClockSource.hpp"
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

  // This rank's clock minus rank 0's at the same instant (0 on rank 0); `source` is `clock`'s,
  // and may change its rate. With `estimate_all` every rank is a domain of its own, as on
  // separate hosts (testing). Collective over `comm`.
  static std::int64_t measure(MPI_Comm comm, vclock::ClockSource& source,
                              const vclock::VirtualClock& clock, bool estimate_all);
};

} // namespace vcmon::runtime::mpi
