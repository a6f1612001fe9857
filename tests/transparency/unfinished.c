/* Operations left unfinished at MPI_Finalize. Erroneous, yet MPICH finalizes such programs, and
 * so must the monitor: an Issend whose receive comes only after the sender stopped looking at it,
 * an Issend nobody ever receives, and an Ibarrier nobody waits for, each leaving the layer's own
 * request (the reply receive, the entry reduction) posted, its buffers still MPI's. */
#include "rank_log.h"

#include <unistd.h>

enum { length = 4 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int outgoing[length], incoming[length];
  for (int i = 0; i < length; ++i)
    outgoing[i] = rank * 10 + i;

  MPI_Request late, never, barrier;
  if (rank == 1) {
    /* Received by rank 0 after a while; never waited for here. */
    MPI_Issend(outgoing, length, MPI_INT, 0, 1, MPI_COMM_WORLD, &late);
    /* Received by nobody. */
    MPI_Issend(outgoing, length, MPI_INT, 0, 2, MPI_COMM_WORLD, &never);
  }
  MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
  if (rank == 0) {
    usleep(100000);
    MPI_Status status;
    MPI_Recv(incoming, length, MPI_INT, 1, 1, MPI_COMM_WORLD, &status);
    rank_log_status("late receive", &status, MPI_INT);
    rank_log_ints("late receive", incoming, length);
  }
  rank_log("leaving with operations unfinished");
  rank_log_print();
  MPI_Finalize();
  return 0;
}
