/* MPI communication: one value each way around the ring. */
#include "mixed.h"

#include <mpi.h>

void ring_exchange(const double* mine, double* from_left, double* from_right, int rank, int ranks) {
  const int left = (rank + ranks - 1) % ranks;
  const int right = (rank + 1) % ranks;
  MPI_Sendrecv(mine, 1, MPI_DOUBLE, right, 0, from_left, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(mine, 1, MPI_DOUBLE, left, 1, from_right, 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}
