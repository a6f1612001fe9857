/* MPI calls that are communication statements but were once missing from the classifier:
 * persistent requests and their starts, MPI-4's MPI_Isendrecv and a large-count function. */
#include <mpi.h>

void exchange(int peer, double* out, double* in, int n) {
  MPI_Request requests[2];
  MPI_Send_init(out, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &requests[0]);
  MPI_Recv_init(in, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &requests[1]);
  MPI_Startall(2, requests);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  MPI_Start(&requests[0]);
  MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);
  MPI_Request both;
  MPI_Isendrecv(out, n, MPI_DOUBLE, peer, 2, in, n, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &both);
  MPI_Wait(&both, MPI_STATUS_IGNORE);
  MPI_Send_c(out, (MPI_Count)n, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD);
}
