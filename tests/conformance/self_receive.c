/* self_receive irecv|recv-init: an ERRONEOUS program (a real deadlock). Rank 0 waits for a
 * message from itself that it never sends:
 *   irecv      MPI_Irecv with source 0 (its own rank), then MPI_Wait
 *   recv-init  MPI_Recv_init with source 0, MPI_Start, then MPI_Wait
 * while rank 1 waits in MPI_Recv for the message rank 0 would send after its receive; further
 * ranks wait in MPI_Barrier. Unmonitored, the job hangs.
 *
 * Expected outcome under vcmon (the only run the tests make): within seconds, stderr says
 * "vcmon: deadlock", naming rank 0's MPI_Wait (waiting for rank 0 itself), and the job ends
 * with a non-zero status. */
#include "rank_log.h"

#include <string.h>

enum { kSelfTag = 71, kAfterTag = 72 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  const int persistent = strcmp(mode, "recv-init") == 0;
  if (!persistent && strcmp(mode, "irecv") != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: %s irecv|recv-init\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int value = -1;
  if (rank == 0) {
    MPI_Request request;
    if (persistent) {
      MPI_Recv_init(&value, 1, MPI_INT, 0, kSelfTag, MPI_COMM_WORLD, &request);
      MPI_Start(&request);
    } else {
      MPI_Irecv(&value, 1, MPI_INT, 0, kSelfTag, MPI_COMM_WORLD, &request);
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE); /* nothing is ever sent to it */
    if (persistent)
      MPI_Request_free(&request);
    MPI_Send(&value, 1, MPI_INT, 1, kAfterTag, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, kAfterTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  rank_log("value %d", value);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
