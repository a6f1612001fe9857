/* The same work with and without injected probe cost: 10 calls of work(), each sleeping
 * 2 × 25 ms inside a loop, eight probes per call. Sleeping keeps the program's own time
 * steady on a busy machine, and few long sleeps keep its wake-up jitter small against the
 * work. Run with VCMON_INJECT_PROBE_NS=2000000, the 82 probes cost 164 ms more in real time,
 * but the virtual time of work() must stay within 5% of the plain run. */
#include "hand_instrumented.h"

#include <mpi.h>
#include <time.h>

enum { MAIN, CALL_WORK, WORK, WORK_LOOP };
enum { kCalls = 10, kSleepsPerCall = 2 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 40, 1, -1, "main", "main"},
    [CALL_WORK] = {VCMON_SITE_CALL, 46, 5, MAIN, "work", "work"},
    [WORK] = {VCMON_SITE_PROCEDURE, 25, 1, -1, "work", "work"},
    [WORK_LOOP] = {VCMON_SITE_LOOP, 27, 3, WORK, "for", ""},
};
VCMON_TEST_UNIT(sites)

static void work(void) {
  PROC_SCOPE(WORK);
  LOOP_SCOPE(WORK_LOOP);
  for (int i = 0; i < kSleepsPerCall; ++i) {
    vcmon_loop_iter(SITE(WORK_LOOP));
    struct timespec t = {0, 25000000L};
    nanosleep(&t, NULL);
  }
}

int main(int argc, char** argv) {
  PROC_SCOPE(MAIN);
  MPI_Init(&argc, &argv);
  for (int c = 0; c < kCalls; ++c) {
    CALL(CALL_WORK, work());
  }
  MPI_Finalize();
  return 0;
}
