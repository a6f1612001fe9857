/* unreceived_ssend none|other-tag: an ERRONEOUS program (a real deadlock). Rank 0 sends rank 1
 * a message with MPI_Ssend that rank 1 never receives: rank 1 goes on to MPI_Barrier
 *   none       having posted no receive,
 *   other-tag  having posted an MPI_Irecv from rank 0 with another tag (which cannot match),
 * and further ranks wait in the barrier too. Unmonitored, the job hangs.
 *
 * Expected outcome under vcmon (the only run the tests make): within seconds, stderr says
 * "vcmon: deadlock", naming rank 0's MPI_Ssend (waiting for rank 1), and the job ends with a
 * non-zero status. The deadlock proof holds a blocking send back while its receiver has posted
 * a receive that its stamp went to (MPI completes such a send on its own); this program keeps
 * it reported when no posted receive can take the message. */
#include "rank_log.h"

#include <string.h>

enum { kSentTag = 81, kOtherTag = 82 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  const int other_tag = strcmp(mode, "other-tag") == 0;
  if (!other_tag && strcmp(mode, "none") != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: %s none|other-tag\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int value = 7;
  int received = -1;
  MPI_Request request = MPI_REQUEST_NULL;
  if (rank == 1 && other_tag) {
    MPI_Irecv(&received, 1, MPI_INT, 0, kOtherTag, MPI_COMM_WORLD, &request);
  }
  if (rank == 0) {
    MPI_Ssend(&value, 1, MPI_INT, 1, kSentTag, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (request != MPI_REQUEST_NULL) {
    MPI_Cancel(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
