/* Point-to-point, nonblocking, probe, wait and test calls between two ranks. */
#include <mpi.h>
#include <stdio.h>

static void exchange(int rank, int* values, int n) {
  int other = 1 - rank;
  int incoming[8];
  MPI_Request requests[2];
  MPI_Status statuses[2];
  MPI_Irecv(incoming, n, MPI_INT, other, 7, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(values, n, MPI_INT, other, 7, MPI_COMM_WORLD, &requests[1]);
  int done = 0;
  while (!done)
    MPI_Testall(2, requests, &done, statuses);
  for (int i = 0; i < n; i++)
    values[i] += incoming[i];
}

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int values[8];
  for (int i = 0; i < 8; i++)
    values[i] = rank * 100 + i;
  for (int round = 0; round < 3; round++)
    exchange(rank, values, 8);
  if (rank == 1) {
    MPI_Send(values, 8, MPI_INT, 0, 9, MPI_COMM_WORLD);
  } else {
    MPI_Status status;
    int count;
    MPI_Probe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    int received[8];
    MPI_Request request;
    MPI_Irecv(received, count, MPI_INT, status.MPI_SOURCE, 9, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (int i = 0; i < count; i++)
      printf("%d %d\n", values[i], received[i]);
  }
  MPI_Finalize();
  return 0;
}
