/* Collectives synchronise virtual time: rank r works r × 200 ms, then enters MPI_Barrier, then
 * again for MPI_Ibarrier + MPI_Wait, then an MPI_Allreduce whose result is checked. Rank r
 * must record a synchronisation delay of (size − 1 − r) × 200 ms in each: every participant
 * leaves at the latest one's entry. */
#include "sleep_ms.h"
#include <mpi.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  sleep_ms(200L * rank);
  MPI_Barrier(MPI_COMM_WORLD);

  sleep_ms(200L * rank);
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);

  sleep_ms(200L * rank);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const int ok = sum == size * (size - 1) / 2;
  if (!ok) {
    fprintf(stderr, "rank %d: Allreduce gave %d\n", rank, sum);
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
