/* VCMON_WTIME: the program's own timer around 100 ms of work (20 x 5 ms) whose 40 probes are
 * made to cost 5 ms each (VCMON_INJECT_PROBE_NS). Run as `wtime_program virtual` under
 * VCMON_WTIME=virtual, MPI_Wtime must show the work without the probes (100 ms, up to 150 on
 * a loaded machine); as `wtime_program real` (the default) it shows them too (at least 280 ms).
 * Exits 1 when the timer says otherwise. As `wtime_program monotonic` (VCMON_WTIME=virtual,
 * nothing injected, no throttling) it reads MPI_Wtime between 2 000 000 activations of an empty
 * procedure, whose probes each charge a calibrated constant that may exceed what they cost
 * there: the program's clock must still never go back. */
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

static void empty(void) {
  vcmon_proc_enter(work_site);
  vcmon_proc_exit(work_site);
}

/* How many of `reads` readings of MPI_Wtime, each after `calls` empty activations, were
 * earlier than the one before. */
static int wtime_steps_back(int reads, int calls) {
  int back = 0;
  double last = MPI_Wtime();
  for (int read = 0; read < reads; ++read) {
    for (int call = 0; call < calls; ++call) {
      empty();
    }
    const double now = MPI_Wtime();
    back += now < last;
    last = now;
  }
  return back;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc > 1 && strcmp(argv[1], "monotonic") == 0) {
    const int back = wtime_steps_back(200000, 10);
    printf("MPI_Wtime went back %d times in 200000 readings\n", back);
    MPI_Finalize();
    return back == 0 ? 0 : 1;
  }
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
