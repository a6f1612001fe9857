/* mismatched_collectives allgather|bcast-roots|bcast-igather: an ERRONEOUS program. After a
 * correct MPI_Allreduce and a ring exchange, the ranks of MPI_COMM_WORLD (3 in the tests) call
 * different collectives at the same position:
 *   allgather      rank 1 calls MPI_Allgatherv, the others MPI_Allgather (same counts)
 *   bcast-roots    rank 0 calls MPI_Bcast with root 0, the others with root 1
 *   bcast-igather  rank 0 calls MPI_Bcast (root 0), the others MPI_Igather (root 0) + MPI_Wait
 * MPI requires every member to call the same collective with the same root; what MPICH does
 * with such a program is not defined (it may hang, fail, or even return).
 *
 * Expected outcome under vcmon (the only run the tests make): within seconds, stderr says
 * "vcmon: deadlock", naming both calls (e.g. "rank 0 calls MPI_Bcast with root 0" and "rank 1
 * calls MPI_Bcast with root 1"), and the job ends with a non-zero status. */
#include "rank_log.h"

#include <string.h>

enum { kTag = 61 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "allgather") != 0 && strcmp(mode, "bcast-roots") != 0 &&
      strcmp(mode, "bcast-igather") != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: %s allgather|bcast-roots|bcast-igather\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Correct so far. */
  int sum = 0, incoming = -1;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Sendrecv(&rank, 1, MPI_INT, right_of(rank, size), kTag, &incoming, 1, MPI_INT,
               left_of(rank, size), kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  rank_log("sum %d, from the left %d", sum, incoming);

  /* The mismatch. */
  int value = 10 + rank, gathered[64] = {0};
  if (strcmp(mode, "allgather") == 0) {
    if (rank == 1) {
      int counts[64], displacements[64];
      for (int r = 0; r < size && r < 64; ++r) {
        counts[r] = 1;
        displacements[r] = r;
      }
      MPI_Allgatherv(&value, 1, MPI_INT, gathered, counts, displacements, MPI_INT,
                     MPI_COMM_WORLD);
    } else {
      MPI_Allgather(&value, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD);
    }
  } else if (strcmp(mode, "bcast-roots") == 0) {
    MPI_Bcast(&value, 1, MPI_INT, rank == 0 ? 0 : 1, MPI_COMM_WORLD);
  } else {
    if (rank == 0) {
      MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
      MPI_Request request;
      MPI_Igather(&value, 1, MPI_INT, gathered, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
  }
  rank_log("after the mismatch: value %d, gathered %d %d", value, gathered[0], gathered[1]);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
