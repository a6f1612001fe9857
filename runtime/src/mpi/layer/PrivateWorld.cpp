#include "mpi/layer/PrivateWorld.hpp"

#include "core/RecordsGather.hpp"
#include "core/YieldingCompletion.hpp"

namespace vcmon::runtime::mpi {

void PrivateWorld::open() {
  yielding(PMPI_Comm_idup, MPI_COMM_WORLD, &comm_);
  PMPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  lend_gather_communicator(comm_);
}

} // namespace vcmon::runtime::mpi
