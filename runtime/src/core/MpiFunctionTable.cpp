#include "core/MpiFunctionTable.hpp"

#include <iterator>

namespace vcmon::runtime {
namespace {

constexpr const char* kNames[] = {
#define VCMON_MPI_ID(ID) "MPI_" #ID,
    VCMON_MPI_INDEXED
#undef VCMON_MPI_ID
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
