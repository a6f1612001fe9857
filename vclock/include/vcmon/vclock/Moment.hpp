// A point in time, virtual and real, read together. Once MPI_Init has measured the clock
// offsets and removed them from each rank's clock, all ranks read their clocks in rank 0's
// time base (docs/runtime.md, "Clock offsets"), so moments of different ranks compare
// directly.
#pragma once

#include "vcmon/vclock/VirtualClock.hpp"

#include <cstdint>

namespace vcmon::vclock {

struct Moment {
  std::uint64_t vt = 0;
  std::uint64_t rt = 0;

  static Moment now(const VirtualClock& clock) { return at(clock, clock.source().now_ns()); }
  // At a reading of the clock's source the caller took (and shares with other uses: each
  // read costs several ns, on every message). VT is derived with the intrusion charged so
  // far: take the moment right at the reading, before any later charge.
  static Moment at(const VirtualClock& clock, std::uint64_t now_ns) {
    return {clock.virtual_at(now_ns), clock.real_at(now_ns)};
  }
};

// t − since, or 0 when t is earlier.
constexpr std::uint64_t elapsed(std::uint64_t since, std::uint64_t t) {
  return t > since ? t - since : 0;
}

} // namespace vcmon::vclock
