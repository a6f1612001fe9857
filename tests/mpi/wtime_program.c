/* VCMON_WTIME: the program's own timer around 100 ms of work (20 x 5 ms) whose 40 probes are
 * made to cost 5 ms each (VCMON_INJECT_PROBE_NS). Run as `wtime_program virtual` under
 * VCMON_WTIME=virtual, MPI_Wtime must show the work without the probes (100 ms, up to 150 on
 * a loaded machine); as `wtime_program real` (the default) it shows them too (at least 280 ms).
 * Exits 1 when the timer says otherwise. */
#include "vcmon/probes.h"

#include "sleep_ms.h"
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* The static table vcmon-instrument would emit: one procedure. */
static const vcmon_site_desc sites[] = {
    {VCMON_SITE_PROCEDURE, 22, 13, -1, "work", "work", VCMON_PROBING_TIMED}};
static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__, 1, sites};
static unsigned work_site;
__attribute__((constructor)) static void register_unit(void) {
  vcmon_register_unit(&unit, &work_site);
}

static void work(void) {
  vcmon_proc_enter(work_site);
  sleep_ms(5);
  vcmon_proc_exit(work_site);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int virtual_time = argc > 1 && strcmp(argv[1], "virtual") == 0;
  const double start = MPI_Wtime();
  for (int i = 0; i < 20; ++i) {
    work();
  }
  const double elapsed_ms = (MPI_Wtime() - start) * 1e3;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("rank %d: MPI_Wtime says %.1f ms\n", rank, elapsed_ms);
  MPI_Finalize();
  const int right = virtual_time ? elapsed_ms >= 95.0 && elapsed_ms <= 150.0 : elapsed_ms >= 280.0;
  return right ? 0 : 1;
}
