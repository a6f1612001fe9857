/* A ring in which every rank sends before it receives, with blocking MPI_Send: correct only
 * because MPICH buffers small messages eagerly. A monitor that made standard sends wait for their
 * receiver would deadlock here. */
#include "rank_log.h"

enum { small = 1, medium = 64, rounds = 3 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = right_of(rank, size), left = left_of(rank, size);
  int outgoing[medium], incoming[medium];
  MPI_Status status;

  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < medium; ++i)
      outgoing[i] = rank * 1000 + round * 100 + i;
    MPI_Send(outgoing, small, MPI_INT, right, round, MPI_COMM_WORLD);
    MPI_Send(outgoing, medium, MPI_INT, right, round, MPI_COMM_WORLD);
    MPI_Recv(incoming, small, MPI_INT, left, round, MPI_COMM_WORLD, &status);
    rank_log_status("small", &status, MPI_INT);
    rank_log("small value %d", incoming[0]);
    MPI_Recv(incoming, medium, MPI_INT, left, round, MPI_COMM_WORLD, &status);
    rank_log_status("medium", &status, MPI_INT);
    rank_log_checksum("medium", incoming, sizeof incoming);
  }

  rank_log_print();
  MPI_Finalize();
  return 0;
}
