/* init_finalize: a program that calls MPI_Init and MPI_Finalize and nothing else. Each rank
 * prints "main_ns RANK NS": its main's own measured time, CLOCK_MONOTONIC from main's entry to
 * its return. Linked with libvcmon, its main is a procedure site registered by hand, as
 * vcmon-instrument would register it, so the profile holds main's virtual time: whatever the
 * monitor does at start-up and shutdown must not show there (init_finalize_compare.sh). */
#include "vcmon/probes.h"

#include <mpi.h>
#include <stdio.h>
#include <time.h>

static const vcmon_site_desc sites[] = {{VCMON_SITE_PROCEDURE, 20, 1, -1, "main", "main", VCMON_PROBING_TIMED}};
static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__, 1, sites};
static unsigned main_site;
__attribute__((constructor)) static void register_unit(void) {
  vcmon_register_unit(&unit, &main_site);
}

int main(int argc, char** argv) {
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  vcmon_proc_enter(main_site);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Finalize();
  vcmon_proc_exit(main_site);
  clock_gettime(CLOCK_MONOTONIC, &end);
  const long long ns =
      (long long)(end.tv_sec - start.tv_sec) * 1000000000LL + (end.tv_nsec - start.tv_nsec);
  printf("main_ns %d %lld\n", rank, ns);
  return 0;
}
