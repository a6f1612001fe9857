// VCMON_DEADLOCK=nullmsg (Chandy–Misra): a process waiting for others announces, to every
// other rank, the bound it can promise on its next send (its NullMessageEndpoint's
// announcement over the bounds it has heard), whenever that bound grew.
#pragma once

#include "mpi/control/BlockedCall.hpp"
#include "mpi/control/ControlChannel.hpp"

#include "core/Monitor.hpp"

#include <cstdint>

namespace vcmon::runtime::mpi {

class NullAnnouncer {
public:
  // True when it sent an announcement on `control`, the process's channel (whose stamp
  // protocol's bounds are what this process knows of the others).
  bool announce(Monitor& monitor, ControlChannel& control, const BlockedCall& call,
                std::uint64_t now_rt);

private:
  std::uint64_t announced_ = 0;
  std::uint64_t next_rt_ = 0;
};

} // namespace vcmon::runtime::mpi
