/* inactive_persistent waitany|waitsome|send-init: MPI_Waitany (or MPI_Waitsome) over an
 * MPI_Irecv(MPI_ANY_SOURCE) and a persistent request never started (MPI_Recv_init; send-init:
 * MPI_Send_init), which MPI passes over as a null request, called until it reports
 * MPI_UNDEFINED; rank 1 sends one message.
 *
 * Expected outcome: status 0, the same output with and without vcmon. Before (2026-12-03) the
 * layer took the inactive request for a complete one (MPI_Request_get_status says so) and let
 * the call go to MPI at once, which waited for ever for the wildcard receive that only the layer
 * completes (7 runs in 10 hung with Waitany, every run with Waitsome or a Send_init). */
#include "rank_log.h"

#include <string.h>

enum { kTag = 5, kOtherTag = 99 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  const int waitsome = strcmp(mode, "waitsome") == 0, send_init = strcmp(mode, "send-init") == 0;
  if (!waitsome && !send_init && strcmp(mode, "waitany") != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: %s waitany|waitsome|send-init\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (rank == 1) {
    const int value = 42;
    MPI_Send(&value, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
  } else if (rank == 0) {
    int value = -1, unused = 0;
    MPI_Request requests[2];
    MPI_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[0]);
    if (send_init)
      MPI_Send_init(&unused, 1, MPI_INT, 1, kOtherTag, MPI_COMM_WORLD, &requests[1]);
    else
      MPI_Recv_init(&unused, 1, MPI_INT, 1, kOtherTag, MPI_COMM_WORLD, &requests[1]);
    for (int call = 0; call < 2; ++call) { /* the second finds no active request */
      MPI_Status statuses[2];
      int index = MPI_UNDEFINED;
      if (waitsome) {
        int count = 0, indices[2];
        MPI_Waitsome(2, requests, &count, indices, statuses);
        rank_log("call %d: %d completed", call, count);
        index = count == MPI_UNDEFINED || count == 0 ? MPI_UNDEFINED : indices[0];
      } else {
        MPI_Waitany(2, requests, &index, statuses);
      }
      if (index == MPI_UNDEFINED)
        rank_log("call %d: MPI_UNDEFINED", call);
      else
        rank_log("call %d: request %d, from %d, value %d", call, index, statuses[0].MPI_SOURCE,
                 value);
    }
    MPI_Request_free(&requests[1]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
