/* wildcard_ring ROUNDS [helper]: every rank, ROUNDS times, computes a little and then
 * MPI_Sendrecv's to its right neighbour, receiving from MPI_ANY_SOURCE. With "helper", each
 * rank also runs a thread (MPI_Init, no MPI calls in it) that alternates a few microseconds of
 * work with 100 us sleeps, as a program's timer or progress thread would.
 *
 * With more ranks than cores the monitored ranks' clocks come to be derived from messages
 * alone, and two ranks could each hold a candidate arriving at the same virtual time. Each
 * decider then took the other for able to send at that very time, winning the tie by rank, and
 * both waited for each other: 4 ranks with the helper hung in about one run of three, a few
 * hundred rounds in (docs/deadlock.md, "Lower bounds").
 *
 * Expected outcome: status 0, the same output with and without vcmon; every message comes from
 * the left neighbour. */
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
  const int with_helper = argc > 2 && strcmp(argv[2], "helper") == 0;
  pthread_t thread;
  if (with_helper && pthread_create(&thread, NULL, helper, NULL) != 0) {
    fprintf(stderr, "wildcard_ring: cannot start the helper thread\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double total = 0;
  int from_left = 0, wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    total += work(200 + r % 7);
    double got = 0;
    MPI_Status status;
    MPI_Sendrecv(&total, 1, MPI_DOUBLE, right, 0, &got, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0,
                 MPI_COMM_WORLD, &status);
    if (status.MPI_SOURCE == left) {
      ++from_left;
    } else {
      ++wrong;
    }
    total += got * 1e-9;
  }
  if (with_helper) {
    helper_stop = 1;
    pthread_join(thread, NULL);
  }
  rank_log("rank %d: %d rounds, %d from the left, %d from elsewhere, total %.6f", rank, rounds,
           from_left, wrong, total);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
