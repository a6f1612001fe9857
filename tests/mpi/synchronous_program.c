/* Synchronous sends wait for the partner in virtual time: rank 0 posts MPI_Ssend at once,
 * rank 1 posts the matching receive after 80 ms, so rank 0's Ssend records a synchronisation
 * delay of 80 ms. Then the same with MPI_Issend + MPI_Wait against an MPI_Irecv posted after
 * 80 ms; and a buffered send must not wait at all. */
#include "sleep_ms.h"
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int value = rank;
  int attached_size = 0;
  char* attached = NULL;
  if (rank == 0) {
    MPI_Ssend(&value, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Request request;
    MPI_Issend(&value, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    attached_size = MPI_BSEND_OVERHEAD + (int)sizeof value;
    attached = malloc((size_t)attached_size);
    MPI_Buffer_attach(attached, attached_size);
    MPI_Bsend(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
    sleep_ms(80);
    MPI_Recv(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sleep_ms(80);
    MPI_Request request;
    MPI_Irecv(&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    sleep_ms(80);
    MPI_Recv(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  /* The replies of the synchronous sends are applied by the next wrapped call at the latest. */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (attached != NULL) {
    MPI_Buffer_detach(&attached, &attached_size);
    free(attached);
  }
  MPI_Finalize();
  return 0;
}
