/* Issue 13's case as a real MPI program: work(n) is called from two call sites, one with ten
 * times the work of the other (10 n against n iterations, each an MPI_Allreduce and some
 * computation). Per-site records hold one loop record and one Allreduce record for both
 * calls; the calling contexts give each call its own. Hand-instrumented, as vcmon-instrument
 * would emit it; run on 4 ranks by report_contexts_run (tests/report/contexts_check.sh). */
#include "hand_instrumented.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

enum { MAIN, CALL_HEAVY, CALL_LIGHT, WORK, WORK_LOOP, ALLREDUCE };
enum { kN = 20, kSteps = 200000 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 46, 1, -1, "main", "main", 0},
    [CALL_HEAVY] = {VCMON_SITE_CALL, 52, 3, MAIN, "work", "work", 0},
    [CALL_LIGHT] = {VCMON_SITE_CALL, 53, 3, MAIN, "work", "work", 0},
    [WORK] = {VCMON_SITE_PROCEDURE, 27, 1, -1, "work", "work", 0},
    [WORK_LOOP] = {VCMON_SITE_LOOP, 31, 5, WORK, "for", "", 0},
    [ALLREDUCE] = {VCMON_SITE_COMM, 39, 7, WORK_LOOP, "MPI_Allreduce", "", 0},
};
VCMON_TEST_UNIT(sites)

static volatile uint64_t sink;

static uint64_t work(int n, uint64_t x) {
  PROC_SCOPE(WORK);
  {
    LOOP_SCOPE(WORK_LOOP);
    for (int i = 0; i < n; ++i) {
      vcmon_loop_iter(SITE(WORK_LOOP));
      for (int step = 0; step < kSteps; ++step) { /* xorshift rounds: deterministic work */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
      }
      uint64_t sum = 0;
      COMM(ALLREDUCE, MPI_Allreduce(&x, &sum, 1, MPI_UINT64_T, MPI_BXOR, MPI_COMM_WORLD));
      x ^= sum;
    }
  }
  return x;
}

int main(int argc, char** argv) {
  PROC_SCOPE(MAIN);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(rank + 1);
  CALL(CALL_HEAVY, x = work(10 * kN, x));
  CALL(CALL_LIGHT, x = work(kN, x));
  sink = x;
  if (rank == 0) {
    printf("two_callers: work(%d) then work(%d)\n", 10 * kN, kN);
  }
  MPI_Finalize();
  return 0;
}
