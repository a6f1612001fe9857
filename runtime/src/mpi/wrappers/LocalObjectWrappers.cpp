// MPI calls on local objects (datatypes, groups, attributes, reduction operations): each is a
// record holding its own time with no partner (docs/runtime.md, "Accounting"), its arguments
// passed to PMPI unchanged. One wrapper per entry of VCMON_MPI_LOCAL_OBJECTS.
#include "core/MpiFunctionTable.hpp"
#include "mpi/clock/CallTime.hpp"
#include "mpi/layer/Layer.hpp"

#include <mpi.h>

using vcmon::runtime::mpi::CallTime;
using vcmon::runtime::mpi::Layer;
using vcmon::runtime::mpi::MpiFunction;

#define VCMON_TIMED_WRAPPER(NAME, PARAMS, ARGS)                                                    \
  extern "C" int MPI_##NAME PARAMS {                                                               \
    const CallTime time(Layer::monitor(), MpiFunction::NAME);                                      \
    return PMPI_##NAME ARGS;                                                                       \
  }

VCMON_MPI_LOCAL_OBJECTS(VCMON_TIMED_WRAPPER)

#undef VCMON_TIMED_WRAPPER
