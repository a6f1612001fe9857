/* sleeping_partner SLEEP_MS [MODE]: a rank waits in MPI_Recv for a partner that sleeps
 * SLEEP_MS milliseconds first (1000 and 5000 in the tests: the monitor's default deadlock
 * timeout is 1 s), and the partner then exchanges with it by MPI_Sendrecv and by MPI_Waitall
 * over an MPI_Irecv and an MPI_Isend.
 *
 * 2 ranks: rank 1 sleeps, then MPI_Sendrecv with rank 0, then Irecv + Isend + Waitall with
 * rank 0. Rank 0 waits in MPI_Recv for the Sendrecv's message; MODE says how it supplies the
 * Sendrecv's incoming message:
 *   isend-first     (default) an MPI_Isend posted before its MPI_Recv, completed after it
 *   recv-then-send  an MPI_Send after its MPI_Recv (MPI_Sendrecv is an Isend + Irecv + Waitall:
 *                   this is correct MPI)
 * 3 ranks or more: rank 1 sleeps; rank 2 waits meanwhile in MPI_Sendrecv with it, rank 0 in
 * MPI_Recv; once awake, rank 1 does its MPI_Sendrecv with rank 2 first, then its Irecv + Isend
 * + Waitall with rank 0, whose MPI_Recv matches the Isend and whose MPI_Send then matches the
 * Irecv. Ranks above 2 only join the final reduction.
 *
 * Expected outcome: status 0 after about SLEEP_MS, every rank printing what it received, the
 * same with and without vcmon. The monitor must not take the long wait for a deadlock, nor wait
 * for an answer from a rank that cannot give one. Before 6c1d9d6 the 3-rank form hung (most
 * runs, 1 s and 5 s): the waiting ranks' deadlock checks asked the sleeper for its state and
 * waited for the answer without a deadline. That build was said to print a false "vcmon:
 * deadlock" (exit 3) in some variant; none of those tried here (2 and 3 ranks, the Sendrecv
 * partner, Waitall over Irecv + Isend, a third rank blocked meanwhile) did: the 2-rank form
 * passes with it. MODE recv-then-send hung with that fix too: the monitor's Sendrecv from a
 * specific source sent its data only once the stamp of the message it receives had arrived,
 * while the partner waited inside PMPI_Recv for that data before it sent. */
#include "rank_log.h"
#include "sleep_ms.h"

#include <string.h>

enum { kSendrecvTag = 11, kReplyTag = 12, kIrecvTag = 14, kIsendTag = 15 };

/* The sleeper's MPI_Sendrecv with `partner`. */
static int sleeper_sendrecv(int partner, int rank) {
  int outgoing = 100 * rank + partner, incoming = -1;
  MPI_Status status;
  MPI_Sendrecv(&outgoing, 1, MPI_INT, partner, kSendrecvTag, &incoming, 1, MPI_INT, partner,
               kReplyTag, MPI_COMM_WORLD, &status);
  rank_log("sendrecv with %d: got %d from %d tag %d", partner, incoming, status.MPI_SOURCE,
           status.MPI_TAG);
  return incoming;
}

/* The sleeper's MPI_Waitall over an Irecv and an Isend with `partner`. */
static int sleeper_waitall(int partner, int rank) {
  int outgoing = 1000 * rank + partner, incoming = -1;
  MPI_Request requests[2];
  MPI_Status statuses[2];
  MPI_Irecv(&incoming, 1, MPI_INT, partner, kIrecvTag, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(&outgoing, 1, MPI_INT, partner, kIsendTag, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, statuses);
  rank_log("waitall with %d: got %d from %d tag %d", partner, incoming, statuses[0].MPI_SOURCE,
           statuses[0].MPI_TAG);
  return incoming;
}

/* The other side of sleeper_waitall: the same, from the partner. */
static int partner_waitall(int sleeper, int rank) {
  int outgoing = 10000 * rank + sleeper, incoming = -1;
  MPI_Request requests[2];
  MPI_Status statuses[2];
  MPI_Irecv(&incoming, 1, MPI_INT, sleeper, kIsendTag, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(&outgoing, 1, MPI_INT, sleeper, kIrecvTag, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, statuses);
  rank_log("waitall with %d: got %d from %d tag %d", sleeper, incoming, statuses[0].MPI_SOURCE,
           statuses[0].MPI_TAG);
  return incoming;
}

/* A blocking receive of one int from `source`, logged. */
static int logged_recv(int source, int tag) {
  int incoming = -1;
  MPI_Status status;
  MPI_Recv(&incoming, 1, MPI_INT, source, tag, MPI_COMM_WORLD, &status);
  rank_log("recv from %d: got %d tag %d", status.MPI_SOURCE, incoming, status.MPI_TAG);
  return incoming;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long sleep_for = argc > 1 ? atol(argv[1]) : 1000;
  const char* mode = argc > 2 ? argv[2] : "isend-first";
  const int recv_then_send = strcmp(mode, "recv-then-send") == 0;
  if (!recv_then_send && strcmp(mode, "isend-first") != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: %s SLEEP_MS [isend-first|recv-then-send]\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  rank_log("sleeper sleeps %ld ms, mode %s", sleep_for, mode);
  MPI_Barrier(MPI_COMM_WORLD);

  int received = 0;
  const int reply = 10 * rank + 1;
  if (rank == 1) {
    sleep_ms(sleep_for);
    if (size > 2)
      received += sleeper_sendrecv(2, rank);
    else
      received += sleeper_sendrecv(0, rank);
    received += sleeper_waitall(0, rank);
  } else if (rank == 0 && size == 2) {
    if (recv_then_send) {
      received += logged_recv(1, kSendrecvTag);
      MPI_Send(&reply, 1, MPI_INT, 1, kReplyTag, MPI_COMM_WORLD);
    } else {
      MPI_Request request;
      MPI_Isend(&reply, 1, MPI_INT, 1, kReplyTag, MPI_COMM_WORLD, &request);
      received += logged_recv(1, kSendrecvTag);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    received += partner_waitall(1, rank);
  } else if (rank == 0) {
    /* The sleeper's Waitall with rank 0: its Isend, then its Irecv. */
    received += logged_recv(1, kIsendTag);
    const int outgoing = 10000 * rank + 1;
    MPI_Send(&outgoing, 1, MPI_INT, 1, kIrecvTag, MPI_COMM_WORLD);
  } else if (rank == 2) {
    /* Blocked in MPI_Sendrecv with the sleeper while it sleeps. */
    int incoming = -1;
    MPI_Status status;
    MPI_Sendrecv(&reply, 1, MPI_INT, 1, kReplyTag, &incoming, 1, MPI_INT, 1, kSendrecvTag,
                 MPI_COMM_WORLD, &status);
    rank_log("sendrecv with 1: got %d from %d tag %d", incoming, status.MPI_SOURCE,
             status.MPI_TAG);
    received += incoming;
  }
  int total = 0;
  MPI_Allreduce(&received, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  rank_log("received %d, all ranks %d", received, total);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
