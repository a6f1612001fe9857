// MPI calls on local objects (datatypes, groups, attributes, reduction operations): each is a
// record holding its own time with no partner (docs/runtime.md, "Accounting"), its arguments
// passed to PMPI unchanged. One wrapper per entry of VCMON_MPI_LOCAL_OBJECTS; and, untimed,
// MPI_Comm_create_errhandler.
#include "core/MpiFunctionTable.hpp"
#include "mpi/clock/CallTime.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/layer/ProgramErrorHandlers.hpp"

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

// Error handlers the program makes are called through the layer (ProgramErrorHandlers): not at
// the layer's own looks at a failed request, only where the program's call raises the error.
extern "C" int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function,
                                          MPI_Errhandler* errhandler) {
  return vcmon::runtime::mpi::ProgramErrorHandlers::create(function, errhandler);
}
