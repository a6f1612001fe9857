/* A 4-rank job that runs for a given number of seconds with probes and MPI, for vcmon-query
 * to watch: main -> loop -> call of work() and a ring exchange, hand-instrumented as
 * vcmon-instrument would. Rank 0 prints the job id vcmon-query knows it by. */
#include "../runtime/hand_instrumented.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <vcmon/query.h>

static const vcmon_site_desc sites[] = {
    {VCMON_SITE_PROCEDURE, 30, 1, -1, "main", "main", VCMON_PROBING_TIMED},
    {VCMON_SITE_LOOP, 42, 3, 0, "for", "", VCMON_PROBING_TIMED},
    {VCMON_SITE_CALL, 44, 5, 1, "work", "work", VCMON_PROBING_TIMED},
    {VCMON_SITE_PROCEDURE, 20, 1, -1, "work", "work", VCMON_PROBING_TIMED},
    {VCMON_SITE_COMM, 45, 5, 1, "MPI_Sendrecv", "", VCMON_PROBING_TIMED},
};
VCMON_TEST_UNIT(sites)

static double sink;

static void work(void) {
  PROC_SCOPE(3);
  double x = 1;
  for (int i = 0; i < 50000; ++i) {
    x = x * 0.9999 + 1e-9 * i;
  }
  sink += x;
}

int main(int argc, char** argv) {
  PROC_SCOPE(0);
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const double seconds = argc > 1 ? atof(argv[1]) : 5;
  if (rank == 0) {
    printf("live_program: job %llu\n", vcmon_job_id());
    fflush(stdout);
  }
  const double start = MPI_Wtime();
  int running = 1;
  {
    LOOP_SCOPE(1);
    while (running) {
      vcmon_loop_iter(SITE(1));
      CALL(2, work());
      double token = rank;
      double received = 0;
      COMM(4, MPI_Sendrecv(&token, 1, MPI_DOUBLE, (rank + 1) % size, 0, &received, 1, MPI_DOUBLE,
                           (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      running = MPI_Wtime() - start < seconds;
      MPI_Bcast(&running, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}
