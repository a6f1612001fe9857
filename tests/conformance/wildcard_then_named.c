/* wildcard_then_named go|waitany|anytag|blocking: rank 0 posts MPI_Irecv(MPI_ANY_SOURCE) and then
 * a receive from rank 1 that may take the same messages; MPI gives rank 1's first message to the
 * wildcard, posted first, and its second to the named receive:
 *   go        Irecv(ANY, 7), Irecv(1, 7); MPI_Wait on the wildcard, then rank 0 tells rank 1 to
 *             send its second message, then MPI_Wait on the named receive
 *   waitany   the same, each wait an MPI_Waitany over both requests (the first can only end
 *             with the wildcard)
 *   anytag    Irecv(ANY, 7), Irecv(1, MPI_ANY_TAG); the second message has tag 9
 *   blocking  Irecv(ANY, 7), then a blocking MPI_Recv(1, 7) (rank 1 sends both messages at
 *             once), then MPI_Wait on the wildcard
 * Further ranks only enter the final barrier.
 *
 * Expected outcome: status 0, the same output with and without vcmon. Before (2026-12-02), the
 * wildcard went to MPI undecided once the named receive was posted, and the named receive
 * claimed the stamp of the message the wildcard took: in `go` the wildcard's completion then
 * waited for a stamp rank 1 sends only after rank 0's wait returned, and every run hung. */
#include "rank_log.h"

#include <string.h>

enum { kTag = 7, kOtherTag = 9, kGoTag = 8 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  const int go = strcmp(mode, "go") == 0, waitany = strcmp(mode, "waitany") == 0;
  const int anytag = strcmp(mode, "anytag") == 0, blocking = strcmp(mode, "blocking") == 0;
  if (!go && !waitany && !anytag && !blocking) {
    if (rank == 0)
      fprintf(stderr, "usage: %s go|waitany|anytag|blocking\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int second_tag = anytag ? kOtherTag : kTag;
  if (rank == 1) {
    int first = 1, second = 2, signal = 0;
    MPI_Send(&first, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
    if (!blocking)
      MPI_Recv(&signal, 1, MPI_INT, 0, kGoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&second, 1, MPI_INT, 0, second_tag, MPI_COMM_WORLD);
  } else if (rank == 0) {
    int values[2] = {-1, -1}, signal = 0;
    MPI_Request requests[2];
    MPI_Status statuses[2];
    MPI_Irecv(&values[0], 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[0]);
    if (blocking) {
      MPI_Recv(&values[1], 1, MPI_INT, 1, kTag, MPI_COMM_WORLD, &statuses[1]);
      MPI_Wait(&requests[0], &statuses[0]);
    } else {
      MPI_Irecv(&values[1], 1, MPI_INT, 1, anytag ? MPI_ANY_TAG : kTag, MPI_COMM_WORLD,
                &requests[1]);
      for (int i = 0; i < 2; ++i) {
        int index = i;
        if (waitany)
          MPI_Waitany(2, requests, &index, &statuses[i]);
        else
          MPI_Wait(&requests[i], &statuses[i]);
        rank_log("wait %d ended request %d", i, index);
        if (i == 0)
          MPI_Send(&signal, 1, MPI_INT, 1, kGoTag, MPI_COMM_WORLD);
      }
    }
    for (int i = 0; i < 2; ++i)
      rank_log("receive %d: value %d from %d tag %d", i, values[i], statuses[i].MPI_SOURCE,
               statuses[i].MPI_TAG);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
