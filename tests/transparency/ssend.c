/* Synchronous sends: Ssend between pairs, Issend around the ring, and the one observable property
 * of synchronous mode: an Issend cannot complete before its receive is posted (rank 0 posts it
 * only after a barrier that rank 1 reaches after testing). */
#include "rank_log.h"

enum { length = 5 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int outgoing[length], incoming[length];
  for (int i = 0; i < length; ++i)
    outgoing[i] = rank * 10 + i;
  MPI_Status status;

  /* Pairs (0,1), (2,3)...: the even rank sends first, the odd one receives first. */
  const int partner = rank % 2 == 0 ? rank + 1 : rank - 1;
  if (partner < size) {
    if (rank % 2 == 0) {
      MPI_Ssend(outgoing, length, MPI_INT, partner, 1, MPI_COMM_WORLD);
      MPI_Recv(incoming, length, MPI_INT, partner, 2, MPI_COMM_WORLD, &status);
    } else {
      MPI_Recv(incoming, length, MPI_INT, partner, 1, MPI_COMM_WORLD, &status);
      MPI_Ssend(outgoing, length, MPI_INT, partner, 2, MPI_COMM_WORLD);
    }
    rank_log_status("pair Ssend", &status, MPI_INT);
    rank_log_ints("pair Ssend", incoming, length);
  }

  MPI_Request request;
  MPI_Issend(outgoing, length, MPI_INT, right_of(rank, size), 3, MPI_COMM_WORLD, &request);
  MPI_Recv(incoming, length, MPI_INT, left_of(rank, size), 3, MPI_COMM_WORLD, &status);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  rank_log_status("ring Issend", &status, MPI_INT);
  rank_log_ints("ring Issend", incoming, length);

  if (rank == 1) {
    MPI_Issend(outgoing, length, MPI_INT, 0, 4, MPI_COMM_WORLD, &request);
    int flag;
    MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    rank_log("Issend complete before the receive is posted: %d", flag);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      MPI_Recv(incoming, length, MPI_INT, 1, 4, MPI_COMM_WORLD, &status);
      rank_log_status("late receive", &status, MPI_INT);
    }
  }

  rank_log_print();
  MPI_Finalize();
  return 0;
}
