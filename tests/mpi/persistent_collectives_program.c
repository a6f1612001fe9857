/* Persistent collectives synchronise virtual time as nonblocking ones do: rank r works
 * r × 200 ms before each of two MPI_Start of one MPI_Allreduce_init, then waits for it. Rank r
 * must record a synchronisation delay of (size − 1 − r) × 200 ms per round in MPI_Wait, and each
 * round's sum must be right. */
#include "sleep_ms.h"
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int contribution = 0, sum = 0, ok = 1;
  MPI_Request request;
  MPI_Allreduce_init(&contribution, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                     &request);
  for (int round = 0; round < 2; ++round) {
    sleep_ms(200L * rank);
    contribution = rank + round;
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    if (sum != size * (size - 1) / 2 + size * round) {
      fprintf(stderr, "rank %d: round %d gave %d\n", rank, round, sum);
      ok = 0;
    }
  }
  MPI_Request_free(&request);
  MPI_Finalize();
  return ok ? 0 : 1;
}
