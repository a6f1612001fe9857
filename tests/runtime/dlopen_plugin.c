/* A plugin linked with libvcmon (as `vcmon-mpicc -shared` builds one), for dlopen_host: one
 * probed procedure with a loop and an MPI call. Loading it pulls libvcmon into a process that
 * started without it, as Python does with an instrumented extension module. */
#include "hand_instrumented.h"

#include <mpi.h>

enum { PLUGIN_RUN, PLUGIN_LOOP };

static const vcmon_site_desc sites[] = {
    [PLUGIN_RUN] = {VCMON_SITE_PROCEDURE, 20, 1, -1, "plugin_run", "plugin_run"},
    [PLUGIN_LOOP] = {VCMON_SITE_LOOP, 23, 3, PLUGIN_RUN, "for", ""},
};
VCMON_TEST_UNIT(sites)

/* The sum over the ranks of 0 + 1 + ... + (n - 1). */
long plugin_run(int n) {
  vcmon_proc_enter(SITE(PLUGIN_RUN));
  long local = 0;
  vcmon_loop_enter(SITE(PLUGIN_LOOP));
  for (int i = 0; i < n; ++i) {
    vcmon_loop_iter(SITE(PLUGIN_LOOP));
    local += i;
  }
  vcmon_loop_exit(SITE(PLUGIN_LOOP));
  long total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  vcmon_proc_exit(SITE(PLUGIN_RUN));
  return total;
}
