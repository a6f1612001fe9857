/* More synchronous sends in flight than the layer's request table holds (RequestTable: 16 384):
 * rank 1 posts 20 000 MPI_Issend of nothing to rank 0 and completes them with MPI_Waitall, while
 * rank 0 receives them in order. The sends past the table go untracked. The layer cancelled their
 * reply receives, while rank 0 still answered each: the replies stayed in MPI's queue, and at
 * MPI_Finalize UCX printed a warning line for each on stdout, 3 616 lines that the plain run does
 * not print (found in a public program, 2026-12-01). Logged: how many each side completed. */
#include "rank_log.h"

enum { kMessages = 20000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char nothing = 0;
  if (rank == 1) {
    MPI_Request* requests = malloc(sizeof(MPI_Request) * kMessages);
    MPI_Status* statuses = malloc(sizeof(MPI_Status) * kMessages);
    if (!requests || !statuses)
      abort();
    for (int i = 0; i < kMessages; ++i)
      MPI_Issend(&nothing, 0, MPI_CHAR, 0, 7, MPI_COMM_WORLD, &requests[i]);
    MPI_Waitall(kMessages, requests, statuses);
    rank_log("completed %d synchronous sends", kMessages);
    free(statuses);
    free(requests);
  } else if (rank == 0) {
    for (int i = 0; i < kMessages; ++i)
      MPI_Recv(&nothing, 0, MPI_CHAR, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    rank_log("received %d synchronous sends", kMessages);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
