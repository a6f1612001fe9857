/* Virtual time of a receive (docs/runtime.md, "Virtual time of a receive"): rank 1 works 100 ms
 * (two loop iterations of 50 ms, four probes) and then sends; rank 0 posts its receive at about
 * 10 ms. Whatever the probes cost in real time (VCMON_INJECT_PROBE_NS) and however the ranks'
 * clocks are offset (VCMON_TEST_CLOCK_OFFSET_NS), rank 0's receive must record a synchronisation
 * delay of 90 ms: rank 1 is at virtual 100 ms when it sends. Only rank 1 runs probes. */
#include "vcmon/probes.h"

#include "sleep_ms.h"
#include <mpi.h>
#include <stdio.h>
#include <time.h>

/* The static table vcmon-instrument would emit: one loop. */
static const vcmon_site_desc sites[] = {{VCMON_SITE_LOOP, 31, 5, -1, "for", "", VCMON_PROBING_TIMED}};
static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__, 1, sites};
static unsigned work_loop;
__attribute__((constructor)) static void register_unit(void) {
  vcmon_register_unit(&unit, &work_loop);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int value = 0;
  if (rank == 1) {
    vcmon_loop_enter(work_loop);
    for (int i = 0; i < 2; ++i) {
      vcmon_loop_iter(work_loop);
      sleep_ms(50);
    }
    vcmon_loop_exit(work_loop);
    value = 42;
    MPI_Send(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
  } else if (rank == 0) {
    sleep_ms(10);
    MPI_Recv(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return rank == 0 && value != 42;
}
