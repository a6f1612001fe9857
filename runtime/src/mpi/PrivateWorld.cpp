#include "mpi/PrivateWorld.hpp"

#include "core/RecordsGather.hpp"

namespace vcmon::runtime::mpi {

void PrivateWorld::open() {
  PMPI_Comm_dup(MPI_COMM_WORLD, &comm_);
  PMPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  lend_gather_communicator(comm_);
}

} // namespace vcmon::runtime::mpi
