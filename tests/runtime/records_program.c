/* A deterministic MPI program (2 ranks) whose records are known exactly: procedure counts per
 * call site, loop executions and iterations, recursion, and point-to-point messages with
 * known partners and sizes. profile_check's "records" scenario holds the expected values. */
#include "hand_instrumented.h"

#include "sleep_ms.h"
#include <mpi.h>
#include <time.h>

enum {
  MAIN,
  CALL_WORK_ONCE,
  REPEAT_LOOP,
  CALL_WORK_REPEATED,
  CALL_FACT, /* in main */
  WORK,
  WORK_LOOP,
  SEND,
  RECV, /* work(n) */
  FACT,
  CALL_FACT_SELF /* fact(n) */
};

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 60, 1, -1, "main", "main"},
    [CALL_WORK_ONCE] = {VCMON_SITE_CALL, 65, 3, MAIN, "work", "work"},
    [REPEAT_LOOP] = {VCMON_SITE_LOOP, 66, 3, MAIN, "for", ""},
    [CALL_WORK_REPEATED] = {VCMON_SITE_CALL, 68, 5, REPEAT_LOOP, "work", "work"},
    [CALL_FACT] = {VCMON_SITE_CALL, 70, 3, MAIN, "fact", "fact"},
    [WORK] = {VCMON_SITE_PROCEDURE, 30, 1, -1, "work", "work"},
    [WORK_LOOP] = {VCMON_SITE_LOOP, 33, 3, WORK, "for", ""},
    [SEND] = {VCMON_SITE_COMM, 37, 7, WORK_LOOP, "MPI_Send", ""},
    [RECV] = {VCMON_SITE_COMM, 39, 7, WORK_LOOP, "MPI_Recv", ""},
    [FACT] = {VCMON_SITE_PROCEDURE, 45, 1, -1, "fact", "fact"},
    [CALL_FACT_SELF] = {VCMON_SITE_CALL, 49, 12, FACT, "fact", "fact"},
};
VCMON_TEST_UNIT(sites)

/* Rank 0 sends i+1 ints to rank 1 in iteration i. */
static void work(int n, int rank) {
  PROC_SCOPE(WORK);
  int buffer[8] = {0};
  LOOP_SCOPE(WORK_LOOP);
  for (int i = 0; i < n; ++i) {
    vcmon_loop_iter(SITE(WORK_LOOP));
    if (rank == 0) {
      COMM(SEND, MPI_Send(buffer, i + 1, MPI_INT, 1, 7, MPI_COMM_WORLD));
    } else {
      COMM(RECV, MPI_Recv(buffer, i + 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
  }
}

/* Each activation sleeps 1 ms, so the outermost one lasts at least n ms. */
static int fact(int n) {
  PROC_SCOPE(FACT);
  sleep_ms(1);
  int below = 1;
  if (n > 1) {
    CALL(CALL_FACT_SELF, below = fact(n - 1));
  }
  return n * below;
}

int main(int argc, char** argv) {
  PROC_SCOPE(MAIN);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CALL(CALL_WORK_ONCE, work(3, rank));
  {
    LOOP_SCOPE(REPEAT_LOOP);
    for (int r = 0; r < 2; ++r) {
      vcmon_loop_iter(SITE(REPEAT_LOOP));
      CALL(CALL_WORK_REPEATED, work(2, rank));
    }
  }
  int f = 0;
  CALL(CALL_FACT, f = fact(6));
  MPI_Finalize();
  return f == 720 ? 0 : 1;
}
