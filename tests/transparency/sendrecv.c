/* Sendrecv and Sendrecv_replace: ring shifts in both directions, a receive side with
 * MPI_ANY_SOURCE/MPI_ANY_TAG and a larger buffer than the message, and an in-place shift by two
 * of a strided (vector) buffer, from a named source and from MPI_ANY_SOURCE. Each call's status
 * comes with a marker in MPI_ERROR: MPICH's Sendrecv leaves it, its Sendrecv_replace writes 0
 * there, which the monitored Sendrecv_replace did not until 2026-12-01. */
#include "rank_log.h"

enum { length = 6 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = right_of(rank, size), left = left_of(rank, size);
  int outgoing[length], incoming[2 * length];
  for (int i = 0; i < length; ++i)
    outgoing[i] = rank * 10 + i;
  MPI_Status status;

  status.MPI_ERROR = -7;
  MPI_Sendrecv(outgoing, length, MPI_INT, right, 1, incoming, length, MPI_INT, left, 1,
               MPI_COMM_WORLD, &status);
  rank_log_status("shift right", &status, MPI_INT);
  rank_log("shift right: MPI_ERROR %d", status.MPI_ERROR);
  rank_log_ints("shift right", incoming, length);

  memset(incoming, 0, sizeof incoming);
  status.MPI_ERROR = -7;
  MPI_Sendrecv(outgoing, length - 2, MPI_INT, left, 2, incoming, 2 * length, MPI_INT,
               MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
  rank_log_status("shift left, wildcard receive", &status, MPI_INT);
  rank_log("shift left, wildcard receive: MPI_ERROR %d", status.MPI_ERROR);
  rank_log_ints("shift left, wildcard receive", incoming, 2 * length);
  /* Keeps the next phase's messages out of reach of the wildcard receive. */
  MPI_Barrier(MPI_COMM_WORLD);

  int replaced[2 * length];
  for (int i = 0; i < 2 * length; ++i)
    replaced[i] = i % 2 == 0 ? rank * 100 + i : -i;
  MPI_Datatype every_other;
  MPI_Type_vector(length, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  const int shift = 2 % size;
  status.MPI_ERROR = -7;
  MPI_Sendrecv_replace(replaced, 1, every_other, (rank + shift) % size, 3,
                       (rank + size - shift) % size, 3, MPI_COMM_WORLD, &status);
  rank_log_status("replace, shift by two", &status, every_other);
  rank_log("replace, shift by two: MPI_ERROR %d", status.MPI_ERROR);
  rank_log_ints("replace, shift by two", replaced, 2 * length);
  MPI_Barrier(MPI_COMM_WORLD);
  status.MPI_ERROR = -7;
  MPI_Sendrecv_replace(replaced, 1, every_other, (rank + shift) % size, 4, MPI_ANY_SOURCE, 4,
                       MPI_COMM_WORLD, &status);
  rank_log_status("replace, wildcard receive", &status, every_other);
  rank_log("replace, wildcard receive: MPI_ERROR %d", status.MPI_ERROR);
  rank_log_ints("replace, wildcard receive", replaced, 2 * length);
  MPI_Type_free(&every_other);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
