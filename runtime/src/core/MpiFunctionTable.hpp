// The MPI functions the PMPI layer wraps (vcmon/tables/MpiFunctions.hpp) as dense indices. The
// core makes one synthetic communication site per entry (so an uninstrumented program still
// gets per-MPI-call records); the wrappers use the same indices.
#pragma once

#include "vcmon/tables/MpiFunctions.hpp"

namespace vcmon::runtime::mpi {

// Dense indices: point-to-point, their large-count twins, probes, starts, completion,
// collectives, their nonblocking and persistent twins, MPI_Init and MPI_Finalize, management, local
// objects.
enum class MpiFunction : unsigned {
#define VCMON_ENUM(NAME) NAME,
#define VCMON_ENUM_LOCAL(NAME, params, args) NAME,
#define VCMON_ENUM_C(NAME) NAME##_c,
#define VCMON_ENUM_COLL(NAME, lower) NAME,
#define VCMON_ENUM_ICOLL(NAME, lower) I##lower,
#define VCMON_ENUM_PCOLL(NAME, lower) NAME##_init,
  VCMON_MPI_POINT_TO_POINT(VCMON_ENUM) VCMON_MPI_POINT_TO_POINT(VCMON_ENUM_C)
      VCMON_MPI_PROBES(VCMON_ENUM) VCMON_MPI_STARTS(VCMON_ENUM) VCMON_MPI_COMPLETION(VCMON_ENUM)
          VCMON_MPI_COLLECTIVES(VCMON_ENUM_COLL) VCMON_MPI_COLLECTIVES(VCMON_ENUM_ICOLL)
              VCMON_MPI_COLLECTIVES(VCMON_ENUM_PCOLL) VCMON_MPI_LIFECYCLE(VCMON_ENUM)
                  VCMON_MPI_MANAGEMENT(VCMON_ENUM) VCMON_MPI_LOCAL_OBJECTS(VCMON_ENUM_LOCAL)
#undef VCMON_ENUM
#undef VCMON_ENUM_LOCAL
#undef VCMON_ENUM_C
#undef VCMON_ENUM_COLL
#undef VCMON_ENUM_ICOLL
#undef VCMON_ENUM_PCOLL
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

} // namespace vcmon::runtime::mpi

namespace vcmon::runtime {

// Number of wrapped communication functions, and the name of one ("MPI_Send"); indices are
// dense in [0, mpi_function_count()).
unsigned mpi_function_count();
const char* mpi_function_name(unsigned index);

} // namespace vcmon::runtime
