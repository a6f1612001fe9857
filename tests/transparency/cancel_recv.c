/* Cancel of posted receives: one that nothing can match is cancelled (Test_cancelled true, buffer
 * untouched); one whose synchronous sender has finished is already matched, so the cancel fails
 * and the data arrive; so is one from MPI_ANY_SOURCE posted after its message came (vcmon held
 * it undecided and cancelled it); a started persistent receive is cancelled and the request
 * stays usable. */
#include "rank_log.h"

enum { never_sent_tag = 99, matched_tag = 1, persistent_tag = 2, arrived_tag = 3 };

static void log_cancelled(const char* label, const MPI_Status* status) {
  int cancelled;
  MPI_Test_cancelled(status, &cancelled);
  rank_log("%s: cancelled %d", label, cancelled);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = right_of(rank, size), left = left_of(rank, size);
  int value = -1;
  MPI_Request request;
  MPI_Status status;

  MPI_Irecv(&value, 1, MPI_INT, left, never_sent_tag, MPI_COMM_WORLD, &request);
  MPI_Cancel(&request);
  MPI_Wait(&request, &status);
  log_cancelled("unmatched receive", &status);
  rank_log("unmatched receive: buffer %d, request null %d", value, request == MPI_REQUEST_NULL);

  MPI_Irecv(&value, 1, MPI_INT, left, matched_tag, MPI_COMM_WORLD, &request);
  int outgoing = rank * 11;
  MPI_Ssend(&outgoing, 1, MPI_INT, right, matched_tag, MPI_COMM_WORLD);
  /* Every Ssend has returned, so every receive has been matched. */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Cancel(&request);
  MPI_Wait(&request, &status);
  log_cancelled("matched receive", &status);
  rank_log_status("matched receive", &status, MPI_INT);
  rank_log("matched receive: value %d", value);

  MPI_Send(&outgoing, 1, MPI_INT, right, arrived_tag, MPI_COMM_WORLD);
  int arrived = 0;
  while (!arrived) {
    MPI_Iprobe(left, arrived_tag, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE);
  }
  MPI_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, arrived_tag, MPI_COMM_WORLD, &request);
  MPI_Cancel(&request);
  MPI_Wait(&request, &status);
  log_cancelled("wildcard receive of a message there", &status);
  rank_log_status("wildcard receive of a message there", &status, MPI_INT);
  rank_log("wildcard receive of a message there: value %d", value);

  MPI_Recv_init(&value, 1, MPI_INT, left, persistent_tag, MPI_COMM_WORLD, &request);
  MPI_Start(&request);
  MPI_Cancel(&request);
  MPI_Wait(&request, &status);
  log_cancelled("persistent receive", &status);
  /* No message for the persistent receive is sent before every rank has cancelled it. */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Start(&request);
  MPI_Send(&outgoing, 1, MPI_INT, right, persistent_tag, MPI_COMM_WORLD);
  MPI_Wait(&request, &status);
  log_cancelled("persistent receive restarted", &status);
  rank_log_status("persistent receive restarted", &status, MPI_INT);
  rank_log("persistent receive restarted: value %d", value);
  MPI_Request_free(&request);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
