/* Every MPI call is a record (issue 18), also those that move no message of a partner's: rank
 * 0 makes 3 duplicates and a split of MPI_COMM_WORLD, posts a receive and tests it once before
 * its sender (asleep 100 ms) sends, waits for it, starts a persistent receive 3 times, frees
 * it, cancels a receive nothing matches and waits for it, and frees the 4 communicators. Its
 * profile must hold each call with its count: the layer's wait for a message at MPI_Wait (per
 * partner), the others with no partner. Rank 1 does the matching half. */
#include "sleep_ms.h"
#include <mpi.h>
#include <stdio.h>

enum { kDuplicates = 3, kStarts = 3 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm comms[kDuplicates + 1];
  for (int i = 0; i < kDuplicates; ++i) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
  }
  MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comms[kDuplicates]);
  int value = rank;
  if (rank == 0) {
    MPI_Request request;
    int done = 0;
    MPI_Irecv(&value, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &request);
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) {
      fprintf(stderr, "rank 0: the message came before its sender woke up\n");
      return 1;
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Recv_init(&value, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &request);
    for (int i = 0; i < kStarts; ++i) {
      MPI_Start(&request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&request);
    MPI_Irecv(&value, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    sleep_ms(100);
    MPI_Send(&value, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    for (int i = 0; i < kStarts; ++i) {
      MPI_Send(&value, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    }
  }
  for (int i = 0; i <= kDuplicates; ++i) {
    MPI_Comm_free(&comms[i]);
  }
  MPI_Finalize();
  return 0;
}
