/* Persistent requests around the ring: Send_init/Recv_init started together with Startall and
 * one by one with Start, a synchronous Ssend_init, the empty status of a Wait on an inactive
 * persistent request, and Request_free. */
#include "rank_log.h"

enum { length = 6, rounds = 3 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = right_of(rank, size), left = left_of(rank, size);
  int outgoing[length], incoming[length];
  MPI_Request requests[2]; /* receive, send */
  MPI_Status statuses[2];
  char label[64];

  MPI_Recv_init(incoming, length, MPI_INT, left, 1, MPI_COMM_WORLD, &requests[0]);
  MPI_Send_init(outgoing, length, MPI_INT, right, 1, MPI_COMM_WORLD, &requests[1]);
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < length; ++i)
      outgoing[i] = rank * 100 + round * 10 + i;
    MPI_Startall(2, requests);
    MPI_Waitall(2, requests, statuses);
    snprintf(label, sizeof label, "Startall round %d", round);
    rank_log_status(label, &statuses[0], MPI_INT);
    rank_log_checksum(label, incoming, sizeof incoming);
  }
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < length; ++i)
      outgoing[i] = -(rank * 100 + round * 10 + i);
    MPI_Start(&requests[0]);
    MPI_Start(&requests[1]);
    MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
    MPI_Wait(&requests[0], &statuses[0]);
    snprintf(label, sizeof label, "Start round %d", round);
    rank_log_status(label, &statuses[0], MPI_INT);
    rank_log_checksum(label, incoming, sizeof incoming);
  }
  rank_log("requests stay allocated after Wait=%d",
           requests[0] != MPI_REQUEST_NULL && requests[1] != MPI_REQUEST_NULL);

  /* An inactive persistent request completes at once with an empty status. */
  MPI_Wait(&requests[0], &statuses[0]);
  rank_log_status("Wait on inactive request", &statuses[0], MPI_INT);
  int flag;
  MPI_Test(&requests[0], &flag, &statuses[0]);
  rank_log("Test on inactive request: flag=%d", flag);
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);
  rank_log("requests null after Request_free=%d",
           requests[0] == MPI_REQUEST_NULL && requests[1] == MPI_REQUEST_NULL);

  /* Synchronous persistent sends: odd ranks receive first so pairs do not wait on each other. */
  if (rank % 2 == 0 && rank + 1 < size) {
    MPI_Ssend_init(outgoing, length, MPI_INT, rank + 1, 2, MPI_COMM_WORLD, &requests[1]);
    for (int round = 0; round < rounds; ++round) {
      outgoing[0] = round;
      MPI_Start(&requests[1]);
      MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&requests[1]);
    rank_log("Ssend_init: %d rounds sent", rounds);
  } else if (rank % 2 == 1) {
    MPI_Recv_init(incoming, length, MPI_INT, rank - 1, 2, MPI_COMM_WORLD, &requests[0]);
    for (int round = 0; round < rounds; ++round) {
      MPI_Start(&requests[0]);
      MPI_Wait(&requests[0], &statuses[0]);
      snprintf(label, sizeof label, "Ssend_init round %d", round);
      rank_log_status(label, &statuses[0], MPI_INT);
      rank_log("%s: first value %d", label, incoming[0]);
    }
    MPI_Request_free(&requests[0]);
  }

  rank_log_print();
  MPI_Finalize();
  return 0;
}
