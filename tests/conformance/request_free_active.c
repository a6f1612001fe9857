/* request_free_active [MESSAGES]: rank 0 posts an MPI_Irecv from rank 1 and frees it at once
 * with MPI_Request_free while it is active (allowed: the receive still takes its message, the
 * program just cannot learn when; here a later exchange tells it). Rank 1 sends that message,
 * then both ranks exchange MESSAGES (default 20) more messages on the same communicator and
 * tag, in both directions, by MPI_Send/MPI_Recv, MPI_Isend/MPI_Irecv and a persistent receive,
 * also freed while active once more near the end and followed by more traffic. Rank 0 prints
 * the value the freed receive delivered into its buffer (read after an exchange that orders it)
 * and checksums of everything else.
 *
 * Expected outcome: status 0, the same output with and without vcmon, and no warning in either
 * stream about a message that was not matched (MPICH's UCX layer reports unreceived messages at
 * MPI_Finalize; a monitor that left a stamp behind for the freed receive, or gave the freed
 * receive's stamp to the next receive, would show). */
#include "rank_log.h"

enum { kTag = 91, kOrderTag = 92 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int messages = argc > 1 ? atoi(argv[1]) : 20;
  volatile int freed_target = -1;
  if (rank <= 1) {
    const int other = 1 - rank;
    if (rank == 0) {
      MPI_Request request;
      MPI_Irecv((int*)&freed_target, 1, MPI_INT, 1, kTag, MPI_COMM_WORLD, &request);
      MPI_Request_free(&request);
      rank_log("freed active receive: handle null %d", request == MPI_REQUEST_NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      const int first = 4242;
      MPI_Send(&first, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
    }
    /* Messages on the same tag after it, in both directions. */
    uint64_t sum = 0;
    for (int m = 0; m < messages; ++m) {
      int out = rank * 10000 + m, in = -1;
      if (m % 3 == 0) {
        if (rank == 1) {
          MPI_Send(&out, 1, MPI_INT, other, kTag, MPI_COMM_WORLD);
          MPI_Recv(&in, 1, MPI_INT, other, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(&in, 1, MPI_INT, other, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(&out, 1, MPI_INT, other, kTag, MPI_COMM_WORLD);
        }
      } else if (m % 3 == 1) {
        MPI_Request requests[2];
        MPI_Irecv(&in, 1, MPI_INT, other, kTag, MPI_COMM_WORLD, &requests[0]);
        MPI_Isend(&out, 1, MPI_INT, other, kTag, MPI_COMM_WORLD, &requests[1]);
        MPI_Status statuses[2];
        MPI_Waitall(2, requests, statuses);
      } else {
        MPI_Request persistent;
        MPI_Recv_init(&in, 1, MPI_INT, other, kTag, MPI_COMM_WORLD, &persistent);
        MPI_Start(&persistent);
        MPI_Send(&out, 1, MPI_INT, other, kTag, MPI_COMM_WORLD);
        MPI_Wait(&persistent, MPI_STATUS_IGNORE);
        MPI_Request_free(&persistent);
      }
      sum = sum * 31 + (uint64_t)in;
    }
    /* Once more: a started persistent receive freed while active, its message, more traffic. */
    int late = -1;
    if (rank == 0) {
      MPI_Request persistent;
      MPI_Recv_init(&late, 1, MPI_INT, 1, kTag, MPI_COMM_WORLD, &persistent);
      MPI_Start(&persistent);
      MPI_Request_free(&persistent);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      const int value = 777;
      MPI_Send(&value, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
    }
    for (int m = 0; m < 3; ++m) {
      int out = rank * 100 + m, in = -1;
      MPI_Sendrecv(&out, 1, MPI_INT, other, kTag, &in, 1, MPI_INT, other, kTag, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      sum = sum * 31 + (uint64_t)in;
    }
    /* A synchronous exchange on another tag: the messages above have all been received. */
    int ack = 0;
    if (rank == 1)
      MPI_Ssend(&ack, 1, MPI_INT, 0, kOrderTag, MPI_COMM_WORLD);
    else
      MPI_Recv(&ack, 1, MPI_INT, 1, kOrderTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
      rank_log("freed receives delivered %d and %d", freed_target, late);
    rank_log("%d messages: checksum %016llx", messages + 3, (unsigned long long)sum);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
