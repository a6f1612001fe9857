// Where a process waits, for the deadlock report: part of a state reply (ControlMessages), so
// apart from BlockedCall, whose header needs MPI.
#pragma once

#include "vcmon/tables/Site.hpp"

namespace vcmon::runtime::mpi {

struct WaitPlace {
  unsigned function = 0; // MpiFunction index; ~0u when not in a blocking call
  tables::SiteId site = tables::kNoSite;
};

} // namespace vcmon::runtime::mpi
