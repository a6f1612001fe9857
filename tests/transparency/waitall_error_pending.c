/* MPI_Waitall under MPI_ERRORS_RETURN over a receive that truncates and a receive from
 * MPI_ANY_SOURCE whose message has already come: MPI returns MPI_ERR_IN_STATUS, and marks the
 * second MPI_ERR_PENDING, still active. The program then waits for it as the standard says,
 * and receives the next message with its tag. Logs every status and which requests stayed
 * active.
 *
 * Before (found 2026-12-01, sixth adversarial round): monitored, the second status read
 * success, source 1, tag 3, while its request stayed active; a program trusting the statuses
 * would never have waited for it. The layer reported the wildcard receive it had completed
 * for MPI's own request, which MPI had not completed. */
#include "rank_log.h"

#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 1) {
    const int big[8] = {1, 2, 3, 4, 5, 6, 7, 8}, three[3] = {7, 7, 7}, next[4] = {5, 5, 5, 5};
    MPI_Send(big, 8, MPI_INT, 0, 2, MPI_COMM_WORLD);
    MPI_Send(three, 3, MPI_INT, 0, 3, MPI_COMM_WORLD);
    MPI_Send(next, 4, MPI_INT, 0, 3, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    usleep(20000); /* both messages are here */
    int small[2] = {0, 0}, four[4] = {-1, -1, -1, -1};
    MPI_Request requests[2];
    MPI_Status statuses[2];
    MPI_Irecv(small, 2, MPI_INT, 1, 2, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(four, 4, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &requests[1]);
    const int rc = MPI_Waitall(2, requests, statuses);
    rank_log("Waitall: class %d", error_class_of(rc));
    for (int i = 0; i < 2; ++i) {
      const int cls = error_class_of(statuses[i].MPI_ERROR);
      if (cls == MPI_ERR_PENDING) { /* MPI leaves its other fields undefined */
        rank_log("status %d: pending, still active %d", i, requests[i] != MPI_REQUEST_NULL);
      } else {
        rank_log("status %d: class %d, source %d, tag %d, still active %d", i, cls,
                 statuses[i].MPI_SOURCE, statuses[i].MPI_TAG, requests[i] != MPI_REQUEST_NULL);
      }
    }
    for (int i = 0; i < 2; ++i) {
      if (error_class_of(statuses[i].MPI_ERROR) == MPI_ERR_PENDING) {
        MPI_Status status;
        const int waited = MPI_Wait(&requests[i], &status);
        int count = -1;
        MPI_Get_count(&status, MPI_INT, &count);
        rank_log("waited for %d: class %d, source %d, tag %d, count %d, first %d", i,
                 error_class_of(waited), status.MPI_SOURCE, status.MPI_TAG, count, four[0]);
      }
    }
    int after[4] = {-1, -1, -1, -1};
    MPI_Status status;
    const int received = MPI_Recv(after, 4, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &status);
    rank_log("next tag 3: class %d, source %d, first %d", error_class_of(received),
             status.MPI_SOURCE, after[0]);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
