#include "core/MpiFunctionTable.hpp"

#include <iterator>

namespace vcmon::runtime {
namespace {

constexpr const char* kNames[] = {
#define VCMON_NAME(NAME) "MPI_" #NAME,
#define VCMON_NAME_LOCAL(NAME, params, args) "MPI_" #NAME,
#define VCMON_NAME_C(NAME) "MPI_" #NAME "_c",
#define VCMON_NAME_COLL(NAME, lower) "MPI_" #NAME,
#define VCMON_NAME_ICOLL(NAME, lower) "MPI_I" #lower,
#define VCMON_NAME_PCOLL(NAME, lower) "MPI_" #NAME "_init",
    VCMON_MPI_POINT_TO_POINT(VCMON_NAME) VCMON_MPI_POINT_TO_POINT(VCMON_NAME_C)
        VCMON_MPI_PROBES(VCMON_NAME) VCMON_MPI_STARTS(VCMON_NAME) VCMON_MPI_COMPLETION(VCMON_NAME)
            VCMON_MPI_COLLECTIVES(VCMON_NAME_COLL) VCMON_MPI_COLLECTIVES(VCMON_NAME_ICOLL)
                VCMON_MPI_COLLECTIVES(VCMON_NAME_PCOLL) VCMON_MPI_LIFECYCLE(VCMON_NAME)
                    VCMON_MPI_MANAGEMENT(VCMON_NAME) VCMON_MPI_LOCAL_OBJECTS(VCMON_NAME_LOCAL)
#undef VCMON_NAME
#undef VCMON_NAME_LOCAL
#undef VCMON_NAME_C
#undef VCMON_NAME_COLL
#undef VCMON_NAME_ICOLL
#undef VCMON_NAME_PCOLL
};
static_assert(std::size(kNames) == mpi::index_of(mpi::MpiFunction::Count));

} // namespace

unsigned mpi_function_count() {
  return mpi::index_of(mpi::MpiFunction::Count);
}

const char* mpi_function_name(unsigned index) {
  return index < mpi_function_count() ? kNames[index] : "MPI_unknown";
}

} // namespace vcmon::runtime
