// How a report names an MPI call: "MPI_Recv at file.c:31", or the MPI function alone outside
// instrumented code (synthetic sites have no position).
#pragma once

#include "core/Monitor.hpp"

#include "vcmon/tables/Site.hpp"

#include <string>

namespace vcmon::runtime::mpi {

// `function`: an MpiFunction index (else "MPI"); `site`: the comm site the call is charged to.
std::string describe_call(Monitor& monitor, unsigned function, tables::SiteId site);

} // namespace vcmon::runtime::mpi
