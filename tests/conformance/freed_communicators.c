/* freed_communicators pending [ITERATIONS] | pending-any [ITERATIONS] | alive [COUNT]
 *
 * pending: ITERATIONS times (default 10000), ranks 0 and 1 duplicate MPI_COMM_WORLD; rank 0
 * posts an MPI_Irecv from rank 1 on the duplicate and frees its handle at once, then tells
 * rank 1 so on MPI_COMM_WORLD; only then does rank 1 send on its handle (every 10th time an
 * MPI_Ssend, which the freed communicator's pending receive must match and answer) and free
 * it. Rank 0 completes the receive after the free (MPI 4.1 §7.4.3: freeing only marks the
 * communicator; pending operations complete). Other ranks duplicate and free at once. Rank 0
 * prints a checksum of everything it received and the count of statuses that named the
 * right source and tag.
 *
 * pending-any: the same with the receive from MPI_ANY_SOURCE. vcmon held it undecided, and
 * posted its decision on the freed handle: MPI aborted the job ("Invalid communicator").
 *
 * alive: every rank makes COUNT (default 800) communicators at once, by MPI_Comm_dup (every
 * 100th by MPI_Comm_split, which MPICH makes slowly when many exist), keeps them all, then does an
 * MPI_Allreduce and a ring exchange on each, and frees them in reverse order; it prints the sums.
 *
 * Expected outcome: status 0, the same output with and without vcmon. The monitor keeps
 * private duplicates per communicator and retires them only when no request refers to them.
 * Before 6c1d9d6 it kept two per communicator, so COUNT = 800 user communicators needed 2400
 * of MPICH's context ids (it has 2048): MPI_Comm_dup failed inside the monitor and the job
 * aborted; and a synchronous send's reply for a receive pending on a freed communicator was
 * addressed to MPI_COMM_NULL. */
#include "rank_log.h"

#include <string.h>

enum { kTag = 41, kGoTag = 42 };

static void pending_receives(int rank, int iterations, int source) {
  uint64_t sum = 0;
  int right_statuses = 0;
  for (int i = 0; i < iterations; ++i) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    const int value = i * 3 + 1;
    if (rank == 0) {
      int incoming = -1;
      MPI_Request request;
      MPI_Irecv(&incoming, 1, MPI_INT, source, kTag, dup, &request);
      MPI_Comm_free(&dup);
      MPI_Send(&i, 1, MPI_INT, 1, kGoTag, MPI_COMM_WORLD);
      MPI_Status status;
      MPI_Wait(&request, &status);
      right_statuses += status.MPI_SOURCE == 1 && status.MPI_TAG == kTag;
      sum = sum * 31 + (uint64_t)incoming;
    } else if (rank == 1) {
      int go = -1;
      MPI_Recv(&go, 1, MPI_INT, 0, kGoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (go != i)
        rank_log("iteration %d: go %d", i, go);
      if (i % 10 == 9)
        MPI_Ssend(&value, 1, MPI_INT, 0, kTag, dup);
      else
        MPI_Send(&value, 1, MPI_INT, 0, kTag, dup);
      MPI_Comm_free(&dup);
    } else {
      MPI_Comm_free(&dup);
    }
  }
  if (rank == 0)
    rank_log("%d receives completed after the free: checksum %016llx, right statuses %d",
             iterations, (unsigned long long)sum, right_statuses);
}

static void alive(int rank, int size, int count) {
  MPI_Comm* comms = malloc(sizeof(MPI_Comm) * (size_t)count);
  for (int i = 0; i < count; ++i) {
    if (i % 100 != 99)
      MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
    else
      MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comms[i]);
  }
  long reduced = 0, exchanged = 0;
  for (int i = 0; i < count; ++i) {
    int r, n, sum = 0, incoming = -1;
    MPI_Comm_rank(comms[i], &r);
    MPI_Comm_size(comms[i], &n);
    const int contribution = r + i;
    MPI_Allreduce(&contribution, &sum, 1, MPI_INT, MPI_SUM, comms[i]);
    reduced += sum;
    MPI_Sendrecv(&contribution, 1, MPI_INT, right_of(r, n), kTag, &incoming, 1, MPI_INT,
                 left_of(r, n), kTag, comms[i], MPI_STATUS_IGNORE);
    exchanged += incoming;
  }
  for (int i = count - 1; i >= 0; --i)
    MPI_Comm_free(&comms[i]);
  free(comms);
  rank_log("%d communicators alive at once: reductions %ld, exchanges %ld", count, reduced,
           exchanged);
  (void)rank;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "pending";
  if (strcmp(mode, "pending") == 0 || strcmp(mode, "pending-any") == 0) {
    pending_receives(rank, argc > 2 ? atoi(argv[2]) : 10000,
                     strcmp(mode, "pending") == 0 ? 1 : MPI_ANY_SOURCE);
  } else if (strcmp(mode, "alive") == 0) {
    alive(rank, size, argc > 2 ? atoi(argv[2]) : 800);
  } else {
    if (rank == 0)
      fprintf(stderr, "usage: %s pending [ITERATIONS] | pending-any [ITERATIONS] | alive [COUNT]\n",
              argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
