/* The proxy applications' results as compare.sh reads them: one "phase NAME SECONDS" line per
 * timer (the slowest rank's time), then "verify VALUE". Collective: every rank calls it, rank 0
 * prints (its `verify`). */
#ifndef VCMON_BENCH_APP_RESULTS_H
#define VCMON_BENCH_APP_RESULTS_H

#include <mpi.h>
#include <stdio.h>

enum { max_phases = 16 };

static void print_results(int count, const char* const names[], const double seconds[],
                          double verify) {
  double slowest[max_phases];
  MPI_Reduce(seconds, slowest, count, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    for (int i = 0; i < count; ++i) {
      printf("phase %s %.6f\n", names[i], slowest[i]);
    }
    printf("verify %.10e\n", verify);
  }
}

#endif
