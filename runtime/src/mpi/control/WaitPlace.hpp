// Where a process waits, for the deadlock report: part of a state reply (ControlMessages), so
// apart from BlockedCall, whose header needs MPI.
#pragma once

#include "vcmon/tables/Site.hpp"

namespace vcmon::runtime::mpi {

struct WaitPlace {
  unsigned function = 0; // MpiFunction index; ~0u when not in a blocking call
  tables::SiteId site = tables::kNoSite;
  // Every waiting thread waits for a message to arrive (a receive or probe whose stamp has not
  // come): only a send of a rank it waits on can end the wait, not a receive (WaitersOnThisRank).
  bool message_wait = false;
};

} // namespace vcmon::runtime::mpi
