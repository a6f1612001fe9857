// The MPI functions the PMPI layer wraps (vcmon/tables/MpiFunctions.hpp) as dense indices. The
// core makes one synthetic communication site per entry (so an uninstrumented program still
// gets per-MPI-call records); the wrappers use the same indices.
#pragma once

#include "vcmon/tables/MpiFunctions.hpp"

namespace vcmon::runtime::mpi {

// Every wrapped function's identifier in the dense order (point-to-point, their large-count
// twins, probes, starts, completion, collectives, their nonblocking and persistent twins, the
// large-count twins of those three,
// MPI_Init and MPI_Finalize, management, local objects): VCMON_MPI_INDEXED expands
// VCMON_MPI_ID(Send) ... VCMON_MPI_ID(Op_free), for the enum here and the name table
// (MpiFunctionTable.cpp) to define VCMON_MPI_ID each their way.
#define VCMON_MPI_ID_PLAIN(NAME) VCMON_MPI_ID(NAME)
#define VCMON_MPI_ID_LARGE_COUNT(NAME) VCMON_MPI_ID(NAME##_c)
#define VCMON_MPI_ID_COLLECTIVE(NAME, lower) VCMON_MPI_ID(NAME)
#define VCMON_MPI_ID_NONBLOCKING(NAME, lower) VCMON_MPI_ID(I##lower)
#define VCMON_MPI_ID_PERSISTENT(NAME, lower) VCMON_MPI_ID(NAME##_init)
#define VCMON_MPI_ID_COLLECTIVE_C(NAME, lower) VCMON_MPI_ID(NAME##_c)
#define VCMON_MPI_ID_NONBLOCKING_C(NAME, lower) VCMON_MPI_ID(I##lower##_c)
#define VCMON_MPI_ID_PERSISTENT_C(NAME, lower) VCMON_MPI_ID(NAME##_init_c)
#define VCMON_MPI_ID_LOCAL(NAME, params, args) VCMON_MPI_ID(NAME)
#define VCMON_MPI_INDEXED                                                                          \
  VCMON_MPI_POINT_TO_POINT(VCMON_MPI_ID_PLAIN)                                                     \
  VCMON_MPI_POINT_TO_POINT(VCMON_MPI_ID_LARGE_COUNT)                                               \
  VCMON_MPI_PROBES(VCMON_MPI_ID_PLAIN)                                                             \
  VCMON_MPI_STARTS(VCMON_MPI_ID_PLAIN)                                                             \
  VCMON_MPI_COMPLETION(VCMON_MPI_ID_PLAIN)                                                         \
  VCMON_MPI_COLLECTIVES(VCMON_MPI_ID_COLLECTIVE)                                                   \
  VCMON_MPI_COLLECTIVES(VCMON_MPI_ID_NONBLOCKING)                                                  \
  VCMON_MPI_COLLECTIVES(VCMON_MPI_ID_PERSISTENT)                                                   \
  VCMON_MPI_COUNTED_COLLECTIVES(VCMON_MPI_ID_COLLECTIVE_C)                                         \
  VCMON_MPI_COUNTED_COLLECTIVES(VCMON_MPI_ID_NONBLOCKING_C)                                        \
  VCMON_MPI_COUNTED_COLLECTIVES(VCMON_MPI_ID_PERSISTENT_C)                                         \
  VCMON_MPI_LIFECYCLE(VCMON_MPI_ID_PLAIN)                                                          \
  VCMON_MPI_MANAGEMENT(VCMON_MPI_ID_PLAIN)                                                         \
  VCMON_MPI_LOCAL_OBJECTS(VCMON_MPI_ID_LOCAL)

enum class MpiFunction : unsigned {
#define VCMON_MPI_ID(ID) ID,
  VCMON_MPI_INDEXED
#undef VCMON_MPI_ID
      Count
};

constexpr unsigned index_of(MpiFunction function) {
  return static_cast<unsigned>(function);
}

// A blocking send (function index), which may wait for its receiver to match it.
constexpr bool is_blocking_send(unsigned function) {
  using enum MpiFunction;
  return function == index_of(Send) || function == index_of(Bsend) || function == index_of(Rsend) ||
         function == index_of(Ssend) || function == index_of(Send_c) ||
         function == index_of(Bsend_c) || function == index_of(Rsend_c) ||
         function == index_of(Ssend_c);
}

// The collective MPI matches `function` with: its int-count form for a large-count twin
// (MPI_Allreduce for MPI_Allreduce_c), else itself. Members calling either are one collective.
constexpr unsigned matched_collective(unsigned function) {
  using enum MpiFunction;
#define VCMON_MATCHED(NAME, lower)                                                                 \
  if (function == index_of(NAME##_c)) {                                                            \
    return index_of(NAME);                                                                         \
  }                                                                                                \
  if (function == index_of(I##lower##_c)) {                                                        \
    return index_of(I##lower);                                                                     \
  }                                                                                                \
  if (function == index_of(NAME##_init_c)) {                                                       \
    return index_of(NAME##_init);                                                                  \
  }
  VCMON_MPI_COUNTED_COLLECTIVES(VCMON_MATCHED)
#undef VCMON_MATCHED
  return function;
}

} // namespace vcmon::runtime::mpi

namespace vcmon::runtime {

// Number of wrapped communication functions, and the name of one ("MPI_Send"); indices are
// dense in [0, mpi_function_count()).
unsigned mpi_function_count();
const char* mpi_function_name(unsigned index);

} // namespace vcmon::runtime
