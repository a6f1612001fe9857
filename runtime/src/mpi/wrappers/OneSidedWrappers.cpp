// One-sided synchronisation and window construction: MPI_Win_lock, _unlock, _lock_all,
// _unlock_all, _flush*, _fence, _post, _start, _complete, _wait, and the window constructors and
// MPI_Win_free. They may block in MPI for other processes (a lock held elsewhere, a fence, an
// epoch), and the layer cannot poll them: they run unpolled (UnpolledCallWrapper.hpp).
// One-sided communication itself is not monitored (docs/pmpi.md).
#include "mpi/wrappers/UnpolledCallWrapper.hpp"

#include <mpi.h>

using vcmon::runtime::mpi::unpolled;

// clang-format off
#define VCMON_ONE_SIDED_SYNCHRONISATION(X)                                                         \
  X(Win_lock, (int lock_type, int rank, int assert, MPI_Win win), (lock_type, rank, assert, win))  \
  X(Win_unlock, (int rank, MPI_Win win), (rank, win))                                              \
  X(Win_lock_all, (int assert, MPI_Win win), (assert, win))                                        \
  X(Win_unlock_all, (MPI_Win win), (win))                                                          \
  X(Win_flush, (int rank, MPI_Win win), (rank, win))                                               \
  X(Win_flush_all, (MPI_Win win), (win))                                                           \
  X(Win_flush_local, (int rank, MPI_Win win), (rank, win))                                         \
  X(Win_flush_local_all, (MPI_Win win), (win))                                                     \
  X(Win_fence, (int assert, MPI_Win win), (assert, win))                                           \
  X(Win_post, (MPI_Group group, int assert, MPI_Win win), (group, assert, win))                    \
  X(Win_start, (MPI_Group group, int assert, MPI_Win win), (group, assert, win))                   \
  X(Win_complete, (MPI_Win win), (win))                                                            \
  X(Win_wait, (MPI_Win win), (win))                                                                \
  X(Win_create, (void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,          \
                 MPI_Win* win), (base, size, disp_unit, info, comm, win))                          \
  X(Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,     \
                   MPI_Win* win), (size, disp_unit, info, comm, baseptr, win))                     \
  X(Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,             \
                          void* baseptr, MPI_Win* win), (size, disp_unit, info, comm, baseptr, win)) \
  X(Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win* win), (info, comm, win))           \
  X(Win_free, (MPI_Win* win), (win))
// clang-format on

#define VCMON_DEFINE_UNPOLLED(NAME, PARAMS, ARGS)                                                  \
  extern "C" int MPI_##NAME PARAMS {                                                               \
    return unpolled([&] { return PMPI_##NAME ARGS; });                                             \
  }

VCMON_ONE_SIDED_SYNCHRONISATION(VCMON_DEFINE_UNPOLLED)
