/* An MPI program without a single probe, only linked with libvcmon: its MPI calls still get
 * records, at the synthetic comm site of each MPI function, per partner. Rank 0 sends 2, 4 and
 * 6 ints to rank 1, then both enter a barrier. */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int buffer[6] = {0};
  for (int count = 2; count <= 6; count += 2) {
    if (rank == 0) {
      MPI_Send(buffer, count, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Recv(buffer, count, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
