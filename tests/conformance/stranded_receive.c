/* stranded_receive wait|waitany|recv|split: an ERRONEOUS program (a real deadlock). Rank 1 sends rank 0
 * one message with tag 73 and enters MPI_Barrier; rank 0 receives twice with that tag, first from
 * any source, then from rank 1, and the wildcard takes the only message:
 *   wait     MPI_Irecv(MPI_ANY_SOURCE), MPI_Irecv(1), then MPI_Wait on each in turn
 *   waitany  the same two receives, completed by two MPI_Waitany calls
 *   recv     MPI_Recv(MPI_ANY_SOURCE), then MPI_Recv(1)
 *   split    as recv, and the other ranks wait in MPI_Comm_split instead of MPI_Barrier (the
 *            report names the constructor, not the layer's barrier that enters it)
 * Further ranks wait in MPI_Barrier. Unmonitored, rank 0's second wait never ends and the job
 * hangs. The wildcard is decided while rank 0 waits for it (the nonblocking modes post it before
 * the named receive, which MPI must then leave unmatched).
 *
 * Expected outcome under vcmon: within seconds, stderr says "vcmon: deadlock", naming rank 0's
 * wait for rank 1, and the job ends with a non-zero status. */
#include "rank_log.h"

#include <string.h>

enum { kTag = 73 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  const int wait = strcmp(mode, "wait") == 0, waitany = strcmp(mode, "waitany") == 0;
  const int split = strcmp(mode, "split") == 0;
  if (!wait && !waitany && !split && strcmp(mode, "recv") != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: %s wait|waitany|recv|split\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int first = -1, second = -1, value = 42;
  if (rank == 0) {
    if (wait || waitany) {
      MPI_Request requests[2];
      MPI_Irecv(&first, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[0]);
      MPI_Irecv(&second, 1, MPI_INT, 1, kTag, MPI_COMM_WORLD, &requests[1]);
      for (int i = 0; i < 2; ++i) {
        int index = i;
        if (waitany)
          MPI_Waitany(2, requests, &index, MPI_STATUS_IGNORE);
        else
          MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
      }
    } else {
      MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&second, 1, MPI_INT, 1, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (rank == 1) {
    MPI_Send(&value, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
  }
  if (split) {
    MPI_Comm halves;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &halves);
    MPI_Comm_free(&halves);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  rank_log("values %d %d", first, second);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
