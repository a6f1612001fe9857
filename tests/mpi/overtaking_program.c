/* Stamps stay with their messages when a receive overtakes a pending one from the same source
 * with the same tag. Rank 0 sends A, works 200 ms, sends B; then the same with a persistent
 * receive. Rank 1 first posts a nonblocking receive (MPI matches A to it), then receives
 * blocking (B): that MPI_Recv waited 200 ms for its sender, a synchronisation delay of about
 * 200 ms, not a transmission. Taking stamps in the order the receives are called gave the
 * blocking receive A's stamp: 200 ms of transmission and no delay. */
#include "sleep_ms.h"
#include <mpi.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int first = 0, second = 0;
  if (rank == 0) {
    for (int round = 0; round < 2; ++round) {
      first = 10 * round + 1;
      second = 10 * round + 2;
      MPI_Send(&first, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
      sleep_ms(200);
      MPI_Send(&second, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    MPI_Request pending;
    MPI_Irecv(&first, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &pending);
    MPI_Recv(&second, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&pending, MPI_STATUS_IGNORE);
    printf("nonblocking then blocking: %d %d\n", first, second);
    MPI_Recv_init(&first, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &pending);
    MPI_Start(&pending);
    MPI_Recv(&second, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&pending, MPI_STATUS_IGNORE);
    MPI_Request_free(&pending);
    printf("persistent then blocking: %d %d\n", first, second);
  }
  MPI_Finalize();
  return 0;
}
