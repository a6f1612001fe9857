/* A rank whose live publisher is always busy: 20000 procedure records (each publication
 * encodes them all) published every millisecond (the test sets VCMON_PUBLISH_MS=1), and main
 * holding nothing but MPI_Init, the calls and MPI_Finalize, so that main's own time leaves no
 * margin. A publication charged while the calls run must not put MPI_Finalize's start before
 * the last call's end; one still running when MPI_Finalize stops the publisher, charged after
 * the moment the profile is taken at, must not put main's end before MPI_Finalize's.
 * Hand-instrumented; run on 4 ranks by report_publishing_run. */
#include "vcmon/probes.h"

#include <mpi.h>
#include <stdint.h>

enum { kProcedures = 20000, kRounds = 30 };

static vcmon_site_desc sites[kProcedures + 1];
static unsigned unit_base;
static const vcmon_unit_desc unit_desc = {VCMON_PROBE_ABI_VERSION, __FILE__, kProcedures + 1,
                                          sites};

__attribute__((constructor)) static void register_unit(void) {
  sites[0] = (vcmon_site_desc){VCMON_SITE_PROCEDURE, 40, 1, -1, "main", "main", 0};
  for (int i = 1; i <= kProcedures; ++i) {
    sites[i] = (vcmon_site_desc){VCMON_SITE_PROCEDURE, 50, i, -1, "step", "step", 0};
  }
  vcmon_register_unit(&unit_desc, &unit_base);
}

static volatile uint64_t sink;

int main(int argc, char** argv) {
  vcmon_proc_enter(unit_base);
  MPI_Init(&argc, &argv);
  uint64_t x = 88172645463325252ull;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 1; i <= kProcedures; ++i) {
      vcmon_proc_enter(unit_base + i);
      for (int step = 0; step < 200; ++step) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
      }
      vcmon_proc_exit(unit_base + i);
    }
  }
  sink = x;
  MPI_Finalize();
  vcmon_proc_exit(unit_base);
  return 0;
}
