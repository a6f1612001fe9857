/* wildcard_ring ROUNDS MODE [helper]: every rank, ROUNDS times, computes a little and then
 * exchanges with both neighbours, receiving from MPI_ANY_SOURCE:
 *   sendrecv  MPI_Sendrecv to the right;
 *   waitany   MPI_Irecv(MPI_ANY_SOURCE) with tag 2 and with tag 3, MPI_Send tag 2 to the left
 *             and tag 3 to the right, MPI_Waitany over both receives, MPI_Wait on the other.
 * With "helper", each rank also runs a thread (MPI_Init, no MPI calls in it) that alternates a
 * few microseconds of work with 100 us sleeps, as a program's timer or progress thread would.
 *
 * Two hangs on 4 ranks (docs/transparency.md, the conformance table):
 * - sendrecv with the helper: with more threads than cores the ranks' clocks come to be
 *   derived from messages alone, and two ranks could each hold a candidate arriving at the
 *   same virtual time. Each took the other for able to send at that very time, winning the
 *   tie by rank, and both waited (docs/deadlock.md, "Lower bounds"): one run in three.
 * - waitany: a rank whose tag-2 receive could not be decided yet held back its tag-3 receive
 *   too, while telling the others that the tag-3 message already there ended its wait: every
 *   run, within a few hundred rounds.
 *
 * Expected outcome: status 0, the same output with and without vcmon; every message comes
 * from the expected neighbour. */
#include "rank_log.h"

#include <pthread.h>
#include <time.h>

static volatile int helper_stop;
static volatile double helper_sink;

static void* helper(void* unused) {
  while (!helper_stop) {
    double s = 0;
    for (int i = 0; i < 2000; ++i) {
      s += 1.0 / (i + 1);
    }
    helper_sink = s;
    const struct timespec pause = {0, 100000};
    nanosleep(&pause, NULL);
  }
  return unused;
}

static double work(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += 1.0 / (i + 1);
  }
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 3000;
  const int waitany = argc > 2 && strcmp(argv[2], "waitany") == 0;
  const int with_helper = argc > 3 && strcmp(argv[3], "helper") == 0;
  pthread_t thread;
  if (with_helper && pthread_create(&thread, NULL, helper, NULL) != 0) {
    fprintf(stderr, "wildcard_ring: cannot start the helper thread\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double total = 0;
  int expected = 0, wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    total += work(200 + r % 7);
    if (waitany) {
      /* Tag 2 comes from the right, tag 3 from the left. */
      double from[2] = {0, 0};
      MPI_Request requests[2];
      MPI_Irecv(&from[0], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &requests[0]);
      MPI_Irecv(&from[1], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &requests[1]);
      MPI_Send(&total, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD);
      MPI_Send(&total, 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
      MPI_Status statuses[2];
      int first;
      MPI_Waitany(2, requests, &first, &statuses[0]);
      MPI_Wait(&requests[1 - first], &statuses[1]);
      const int sources[2] = {first == 0 ? right : left, first == 0 ? left : right};
      for (int k = 0; k < 2; ++k) {
        expected += statuses[k].MPI_SOURCE == sources[k];
        wrong += statuses[k].MPI_SOURCE != sources[k];
      }
      total += (from[0] + from[1]) * 1e-9;
    } else {
      double got = 0;
      MPI_Status status;
      MPI_Sendrecv(&total, 1, MPI_DOUBLE, right, 0, &got, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0,
                   MPI_COMM_WORLD, &status);
      expected += status.MPI_SOURCE == left;
      wrong += status.MPI_SOURCE != left;
      total += got * 1e-9;
    }
  }
  if (with_helper) {
    helper_stop = 1;
    pthread_join(thread, NULL);
  }
  rank_log("rank %d: %d rounds, %d messages from the expected neighbour, %d from elsewhere, "
           "total %.6f",
           rank, rounds, expected, wrong, total);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
