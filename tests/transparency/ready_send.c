/* Ready-mode sends: Rsend, Irsend and Rsend_init around the ring, each started only after a
 * barrier that every rank reaches once its matching receive is posted, as ready mode requires. */
#include "rank_log.h"

enum { length = 8 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = right_of(rank, size), left = left_of(rank, size);
  int outgoing[length], incoming[3][length] = {{0}};
  for (int i = 0; i < length; ++i)
    outgoing[i] = rank * 100 + i;

  MPI_Request receives[3], send;
  for (int mode = 0; mode < 3; ++mode)
    MPI_Irecv(incoming[mode], length, MPI_INT, left, mode, MPI_COMM_WORLD, &receives[mode]);
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Rsend(outgoing, length, MPI_INT, right, 0, MPI_COMM_WORLD);
  MPI_Irsend(outgoing, length / 2, MPI_INT, right, 1, MPI_COMM_WORLD, &send);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Rsend_init(outgoing, length - 1, MPI_INT, right, 2, MPI_COMM_WORLD, &send);
  MPI_Start(&send);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Request_free(&send);

  MPI_Status statuses[3];
  MPI_Waitall(3, receives, statuses);
  const char* labels[3] = {"Rsend", "Irsend", "Rsend_init"};
  for (int mode = 0; mode < 3; ++mode) {
    rank_log_status(labels[mode], &statuses[mode], MPI_INT);
    rank_log_ints(labels[mode], incoming[mode], length);
  }

  rank_log_print();
  MPI_Finalize();
  return 0;
}
