/* posted_wildcard go|named-first|blocking|waitall|anytag|late-anytag|two-claims|two-claims-waitall|
 * waitall-reversed|rounds|intercomm: a receive
 * from MPI_ANY_SOURCE that the layer posts to MPI as it is (a started persistent MPI_Recv_init; a
 * nonblocking receive on an intercommunicator), then a receive that may take the same messages.
 * MPI gives rank 1's first message to the wildcard, posted first, and its second to the other:
 *   go           Start(Recv_init(ANY, 7)), Irecv(1, 7); MPI_Wait on the wildcard, then rank 0
 *                tells rank 1 to send its second message, then MPI_Wait on the named receive
 *   named-first  the same, rank 1 sending both at once, rank 0 waiting for the named receive first
 *   blocking     Start(Recv_init(ANY, 7)), then a blocking MPI_Recv(1, 7), then MPI_Wait
 *   waitall      Start(Recv_init(ANY, 7)), Irecv(1, 7), one MPI_Waitall listing the named first
 *   anytag       Start(Recv_init(ANY, 7)), Irecv(1, MPI_ANY_TAG); rank 1 sends tag 9, then tag 7
 *   late-anytag  Irecv(ANY, 7) (deferred, then posted undecided as the next receive comes), then
 *                Irecv(1, MPI_ANY_TAG), both after rank 1's tag-9 and tag-7 messages are here;
 *                MPI_Wait on the named receive first
 *   two-claims   Start(Recv_init(ANY, 7)), Irecv(1, MPI_ANY_TAG), Irecv(1, MPI_ANY_TAG), all after
 *                rank 1's two tag-9 messages are here; MPI_Wait on the second named receive, then
 *                on the first; then rank 0 tells rank 1 to send a tag-7 message for the wildcard
 *   two-claims-waitall  the same, one MPI_Waitall listing the second named receive first
 *   waitall-reversed  Start(Recv_init(ANY, 7)), then Irecv(ANY, 7) twice (posted to MPI as they
 *                are, behind the first), all after rank 1's three tag-7 messages are here; one
 *                MPI_Waitall listing them last first
 *   rounds       30 rounds, ranks 1 and 2 sending two messages each: Startall of a persistent
 *                wildcard, Irecv from 1, Irecv from 2, Irecv(ANY), one MPI_Waitall, a barrier
 *   intercomm    go, on an intercommunicator between rank 0 and the others
 * Further ranks only enter the final barrier (rounds: rank 2 sends too).
 *
 * Expected outcome: status 0, the same output with and without vcmon. Before (2026-12-03) such a
 * wildcard took its stamp only at completion, so the named receive claimed the stamp of the
 * message MPI gave the wildcard: in `go` the wildcard's completion then waited for a stamp rank
 * 1 sends only after rank 0's wait returned, and every run hung. In `late-anytag` (and 1 run in
 * 5 of `anytag`) the named receive's claim waited behind the wildcard while its stamp, of a tag
 * the wildcard cannot take, was already in the inbox: it got it only if the wildcard settled
 * first, and in `late-anytag` every run hung. In `two-claims` the second named receive's claim
 * waited for the first's, which waited for the wildcard, which never matched before rank 0's go:
 * every run hung (until 2026-12-03, fourth session). */
#include "rank_log.h"

#include <string.h>

enum { kTag = 7, kOtherTag = 9, kGoTag = 8, kRounds = 30 };

static int mode_is(const char* mode, const char* name) {
  return strcmp(mode, name) == 0;
}

/* Rank 1's part of every mode but rounds: its first message, then (after rank 0's go, where the
 * mode waits for it) its second. */
static void send_two(MPI_Comm comm, int wait_for_go, int first_tag, int second_tag) {
  int first = 1, second = 2, signal = 0;
  MPI_Send(&first, 1, MPI_INT, 0, first_tag, comm);
  if (wait_for_go)
    MPI_Recv(&signal, 1, MPI_INT, 0, kGoTag, comm, MPI_STATUS_IGNORE);
  MPI_Send(&second, 1, MPI_INT, 0, second_tag, comm);
}

/* Rank 0's part of go and intercomm: the wildcard `wildcard`, already posted, then a receive from
 * rank 1 (remote rank 0 of an intercommunicator: `named_source`). */
static void wildcard_then_go(MPI_Comm comm, int named_source, MPI_Request wildcard, int* values,
                             MPI_Status* statuses) {
  int signal = 0;
  MPI_Request named;
  MPI_Irecv(&values[1], 1, MPI_INT, named_source, kTag, comm, &named);
  MPI_Wait(&wildcard, &statuses[0]);
  MPI_Send(&signal, 1, MPI_INT, named_source, kGoTag, comm);
  MPI_Wait(&named, &statuses[1]);
}

static void log_two(const int* values, const MPI_Status* statuses) {
  for (int i = 0; i < 2; ++i)
    rank_log("receive %d: value %d from %d tag %d", i, values[i], statuses[i].MPI_SOURCE,
             statuses[i].MPI_TAG);
}

/* rounds: every round's messages summed; a barrier ends each round, so that no receive takes a
 * message of the next. */
static void rounds(int rank) {
  MPI_Request requests[4];
  int persistent_value = 0, values[3];
  if (rank == 0)
    MPI_Recv_init(&persistent_value, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD,
                  &requests[0]);
  long long sum = 0;
  for (int round = 0; round < kRounds; ++round) {
    if (rank == 1 || rank == 2) {
      const int sent[2] = {rank * 1000 + round, rank * 100000 + round};
      MPI_Send(&sent[0], 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
      MPI_Send(&sent[1], 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
    } else if (rank == 0) {
      MPI_Status statuses[4];
      MPI_Startall(1, &requests[0]);
      MPI_Irecv(&values[0], 1, MPI_INT, 1, kTag, MPI_COMM_WORLD, &requests[1]);
      MPI_Irecv(&values[1], 1, MPI_INT, 2, kTag, MPI_COMM_WORLD, &requests[2]);
      MPI_Irecv(&values[2], 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[3]);
      MPI_Waitall(4, requests, statuses);
      sum += persistent_value + values[0] + values[1] + values[2];
      for (int i = 0; i < 4; ++i)
        if (statuses[i].MPI_TAG != kTag)
          rank_log("round %d: receive %d has tag %d", round, i, statuses[i].MPI_TAG);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) {
    MPI_Request_free(&requests[0]);
    rank_log("sum of %d rounds: %lld", kRounds, sum);
  }
}

/* late-anytag: rank 1's messages are here before rank 0 posts its receives (it computes for 200
 * ms first). */
static void late_anytag(int rank) {
  if (rank == 1) {
    send_two(MPI_COMM_WORLD, 0, kOtherTag, kTag);
  } else if (rank == 0) {
    const double start = MPI_Wtime();
    while (MPI_Wtime() - start < 0.2) {
    }
    int values[2] = {-1, -1};
    MPI_Request requests[2];
    MPI_Status statuses[2];
    MPI_Irecv(&values[0], 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&values[1], 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &requests[1]);
    MPI_Wait(&requests[1], &statuses[1]);
    MPI_Wait(&requests[0], &statuses[0]);
    log_two(values, statuses);
  }
}

/* two-claims: rank 1's two tag-9 messages are here (rank 0 computes for 200 ms first) before rank
 * 0 posts a wildcard that may take only tag 7 and two receives from rank 1 with any tag; the
 * wildcard's tag-7 message comes after rank 0's go. */
static void two_claims(int rank, int waitall) {
  if (rank == 1) {
    int first = 1, second = 2, third = 3, signal = 0;
    MPI_Send(&first, 1, MPI_INT, 0, kOtherTag, MPI_COMM_WORLD);
    MPI_Send(&second, 1, MPI_INT, 0, kOtherTag, MPI_COMM_WORLD);
    MPI_Recv(&signal, 1, MPI_INT, 0, kGoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&third, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
  } else if (rank == 0) {
    const double start = MPI_Wtime();
    while (MPI_Wtime() - start < 0.2) {
    }
    int values[3] = {-1, -1, -1}, signal = 0;
    MPI_Request requests[3];
    MPI_Status statuses[3];
    MPI_Recv_init(&values[0], 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[0]);
    MPI_Start(&requests[0]);
    MPI_Irecv(&values[1], 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &requests[1]);
    MPI_Irecv(&values[2], 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &requests[2]);
    if (waitall) {
      MPI_Request second_first[2] = {requests[2], requests[1]};
      MPI_Status out[2];
      MPI_Waitall(2, second_first, out);
      statuses[2] = out[0];
      statuses[1] = out[1];
    } else {
      MPI_Wait(&requests[2], &statuses[2]);
      MPI_Wait(&requests[1], &statuses[1]);
    }
    MPI_Send(&signal, 1, MPI_INT, 1, kGoTag, MPI_COMM_WORLD);
    MPI_Wait(&requests[0], &statuses[0]);
    MPI_Request_free(&requests[0]);
    for (int i = 0; i < 3; ++i)
      rank_log("receive %d: value %d from %d tag %d", i, values[i], statuses[i].MPI_SOURCE,
               statuses[i].MPI_TAG);
  }
}

/* waitall-reversed: the layer settles the wildcards one MPI_Waitall completed in the order the
 * program listed them; the last one posted waits for the two before it, whose handles MPI freed
 * (before 2026-12-03, fourth session, it polled them: another request's status, or garbage). */
static void waitall_reversed(int rank) {
  if (rank == 1) {
    for (int value = 1; value <= 3; ++value)
      MPI_Send(&value, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
  } else if (rank == 0) {
    const double start = MPI_Wtime();
    while (MPI_Wtime() - start < 0.2) {
    }
    int values[3] = {-1, -1, -1};
    MPI_Request requests[3];
    MPI_Recv_init(&values[0], 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[0]);
    MPI_Start(&requests[0]);
    for (int i = 1; i < 3; ++i)
      MPI_Irecv(&values[i], 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[i]);
    MPI_Request reversed[3] = {requests[2], requests[1], requests[0]};
    MPI_Status statuses[3];
    MPI_Waitall(3, reversed, statuses);
    MPI_Request_free(&reversed[2]);
    for (int i = 0; i < 3; ++i)
      rank_log("receive %d: value %d from %d tag %d", i, values[i], statuses[2 - i].MPI_SOURCE,
               statuses[2 - i].MPI_TAG);
  }
}

/* intercomm: rank 0 alone on one side, every other rank on the other. */
static void intercomm(int rank) {
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : 1, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank == 0 ? 1 : 0, 0, &inter);
  if (rank == 1) {
    send_two(inter, 1, kTag, kTag);
  } else if (rank == 0) {
    int values[2] = {-1, -1};
    MPI_Status statuses[2];
    MPI_Request wildcard;
    MPI_Irecv(&values[0], 1, MPI_INT, MPI_ANY_SOURCE, kTag, inter, &wildcard);
    wildcard_then_go(inter, 0, wildcard, values, statuses);
    log_two(values, statuses);
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(mode_is(argc > 1 ? argv[1] : "", "rounds") ? 3 : 2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  const int go = mode_is(mode, "go"), named_first = mode_is(mode, "named-first");
  const int blocking = mode_is(mode, "blocking"), waitall = mode_is(mode, "waitall");
  const int anytag = mode_is(mode, "anytag"), late = mode_is(mode, "late-anytag");
  if (mode_is(mode, "rounds")) {
    rounds(rank);
  } else if (mode_is(mode, "intercomm")) {
    intercomm(rank);
  } else if (late) {
    late_anytag(rank);
  } else if (mode_is(mode, "waitall-reversed")) {
    waitall_reversed(rank);
  } else if (mode_is(mode, "two-claims") || mode_is(mode, "two-claims-waitall")) {
    two_claims(rank, mode_is(mode, "two-claims-waitall"));
  } else if (!go && !named_first && !blocking && !waitall && !anytag) {
    if (rank == 0)
      fprintf(stderr,
              "usage: %s go|named-first|blocking|waitall|anytag|late-anytag|two-claims|"
              "two-claims-waitall|waitall-reversed|rounds|intercomm\n",
              argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  } else if (rank == 1) {
    send_two(MPI_COMM_WORLD, go, anytag ? kOtherTag : kTag, kTag);
  } else if (rank == 0) {
    int values[2] = {-1, -1};
    MPI_Request requests[2];
    MPI_Status statuses[2];
    MPI_Recv_init(&values[0], 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[0]);
    MPI_Start(&requests[0]);
    if (go) {
      wildcard_then_go(MPI_COMM_WORLD, 1, requests[0], values, statuses);
    } else if (blocking) {
      MPI_Recv(&values[1], 1, MPI_INT, 1, kTag, MPI_COMM_WORLD, &statuses[1]);
      MPI_Wait(&requests[0], &statuses[0]);
    } else {
      MPI_Irecv(&values[1], 1, MPI_INT, 1, anytag ? MPI_ANY_TAG : kTag, MPI_COMM_WORLD,
                &requests[1]);
      if (waitall) {
        MPI_Request named_first_order[2] = {requests[1], requests[0]};
        MPI_Status out[2];
        MPI_Waitall(2, named_first_order, out);
        statuses[0] = out[1];
        statuses[1] = out[0];
      } else {
        MPI_Wait(&requests[1], &statuses[1]);
        MPI_Wait(&requests[0], &statuses[0]);
      }
    }
    MPI_Request_free(&requests[0]);
    log_two(values, statuses);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
