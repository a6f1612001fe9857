/* The workload of the publication benchmark: ROUNDS rounds of a probed procedure call, with a
 * ring exchange every 1000th round, timed with MPI_Wtime and with the main thread's CPU clock
 * (on a machine shared by more processes than cores, CPU time is the steadier measure).
 * Rank 0 prints: loop seconds, publications, CPU ns of the publishing thread, CPU ns of the
 * main thread in the loop. The probes are inserted by hand, as vcmon-instrument would. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vcmon/probes.h>
#include <vcmon/query.h>

static const vcmon_site_desc sites[] = {
    {VCMON_SITE_PROCEDURE, 1, 1, -1, "main", "main", VCMON_PROBING_TIMED},
    {VCMON_SITE_LOOP, 2, 3, 0, "for", "", VCMON_PROBING_TIMED},
    {VCMON_SITE_CALL, 3, 5, 1, "work", "work", VCMON_PROBING_TIMED},
    {VCMON_SITE_PROCEDURE, 4, 1, -1, "work", "work", VCMON_PROBING_TIMED},
    {VCMON_SITE_COMM, 5, 5, 1, "MPI_Sendrecv", "", VCMON_PROBING_TIMED},
};
static unsigned base;
static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__,
                                     sizeof sites / sizeof sites[0], sites};
__attribute__((constructor)) static void register_unit(void) {
  vcmon_register_unit(&unit, &base);
}

static double sink;

static unsigned long long thread_cpu_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return (unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec;
}

static void work(void) {
  vcmon_proc_enter(base + 3);
  double x = 1;
  for (int i = 0; i < 20000; ++i) {
    x = x * 0.9999 + 1e-9 * i;
  }
  sink += x;
  vcmon_proc_exit(base + 3);
}

int main(int argc, char** argv) {
  vcmon_proc_enter(base + 0);
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 20000;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  const unsigned long long cpu_start = thread_cpu_ns();
  vcmon_loop_enter(base + 1);
  for (int round = 0; round < rounds; ++round) {
    vcmon_loop_iter(base + 1);
    vcmon_call_enter(base + 2);
    work();
    vcmon_call_exit(base + 2);
    if (round % 1000 != 0) {
      continue;
    }
    double token = round;
    double received = 0;
    vcmon_comm_enter(base + 4);
    MPI_Sendrecv(&token, 1, MPI_DOUBLE, (rank + 1) % size, 0, &received, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    vcmon_comm_exit(base + 4);
  }
  vcmon_loop_exit(base + 1);
  const unsigned long long cpu = thread_cpu_ns() - cpu_start;
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - start;
  vcmon_publication_stats stats;
  vcmon_publication_stats_get(&stats);
  if (rank == 0) {
    printf("%.6f %llu %llu %llu\n", seconds, (unsigned long long)stats.publications,
           (unsigned long long)stats.cpu_ns, cpu);
  }
  MPI_Finalize();
  vcmon_proc_exit(base + 0);
  return 0;
}
