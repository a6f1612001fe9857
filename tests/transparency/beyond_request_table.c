/* More receives in flight than the layer's request table holds (RequestTable: 16 384): rank 0
 * posts 20 000 MPI_Irecv from named sources and completes them with MPI_Waitall, while the
 * other ranks send their shares with MPI_Send. The receives past the table's capacity are not
 * tracked, so no receive takes their messages' stamps. Those stamps that went as messages (past
 * a full ring) stayed in MPI's queue, and at MPI_Finalize UCX printed one warning per message
 * on stdout: hundreds to thousands of lines that the plain run does not print. Logged: the
 * messages' sum and how many landed in another receive. */
#include "rank_log.h"

enum { kMessages = 20000 };

/* GCC 12 takes MPI_STATUSES_IGNORE, a sentinel pointer, for an array of size 0. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

/* Rank 0: every message, the sender i % senders of message i tagged i / senders. */
static void receive_all(int senders) {
  const int total = kMessages / senders * senders;
  MPI_Request* requests = malloc(sizeof(MPI_Request) * (size_t)total);
  int* values = malloc(sizeof(int) * (size_t)total);
  if (!requests || !values)
    abort();
  for (int i = 0; i < total; ++i)
    MPI_Irecv(&values[i], 1, MPI_INT, 1 + i % senders, i / senders, MPI_COMM_WORLD, &requests[i]);
  MPI_Waitall(total, requests, MPI_STATUSES_IGNORE);
  long sum = 0;
  int misplaced = 0;
  for (int i = 0; i < total; ++i) {
    sum += values[i];
    misplaced += values[i] != i;
  }
  rank_log("received %d messages, sum %ld, %d in another receive", total, sum, misplaced);
  free(values);
  free(requests);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int senders = require_ranks(2) - 1;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    receive_all(senders);
  } else {
    const int share = kMessages / senders;
    for (int i = 0; i < share; ++i) {
      const int value = i * senders + rank - 1;
      MPI_Send(&value, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
    }
    rank_log("sent %d messages", share);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
