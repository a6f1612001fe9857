/* Every rank sends (rank + 1) × 100 bytes to the next rank and receives from the previous one,
 * so that each rank's records differ and a profile that mixed up or lost one rank's section is
 * caught: what the profile writers must bring together from every rank. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int bytes = (rank + 1) * 100;
  const int previous_bytes = ((rank + size - 1) % size + 1) * 100;
  char* out = calloc((size_t)bytes, 1);
  char* in = calloc((size_t)previous_bytes, 1);
  MPI_Request request;
  MPI_Irecv(in, previous_bytes, MPI_BYTE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &request);
  MPI_Send(out, bytes, MPI_BYTE, (rank + 1) % size, 0, MPI_COMM_WORLD);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
