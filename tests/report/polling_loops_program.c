/* Loops of many tiny MPI calls, each its own record: a loop polling MPI_Test on an
 * MPI_Iallgather that rank r enters r × 5 ms late (25 000 polls or more per loop), a loop
 * polling MPI_Iprobe for a message, and a loop of 2 000 small sends and one of as many
 * receives. The layer charged a constant after each call's record ended, beyond what it
 * measured, so the next call could begin before it in virtual time: the calls of a polling loop
 * added up to 0.1-0.7 ms more than the loop, in 2 to 7 runs of 8 (seventh adversarial round,
 * 2026-12-02). Every loop must now hold its children (report_invariants_polling_loops_*).
 * Hand-instrumented, as vcmon-instrument would emit it: the inner loops count their iterations
 * in a local (no probe, hence no clock reading, between two calls). */
#include "hand_instrumented.h"

#include <mpi.h>
#include <stdio.h>
#include <time.h>

enum { MAIN, ROUNDS, IALLGATHER, POLL_TEST, TEST, POLL_PROBE, IPROBE, SENDS, SEND, RECVS, RECV };
enum { kRounds = 4, kMessages = 2000 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 41, 1, -1, "main", "main", 0},
    [ROUNDS] = {VCMON_SITE_LOOP, 50, 5, MAIN, "for", "", 0},
    [IALLGATHER] = {VCMON_SITE_COMM, 56, 7, ROUNDS, "MPI_Iallgather", "", 0},
    [POLL_TEST] = {VCMON_SITE_LOOP, 59, 9, ROUNDS, "while", "", 0},
    [TEST] = {VCMON_SITE_COMM, 60, 11, POLL_TEST, "MPI_Test", "", 0},
    [POLL_PROBE] = {VCMON_SITE_LOOP, 69, 9, ROUNDS, "while", "", 0},
    [IPROBE] = {VCMON_SITE_COMM, 70, 11, POLL_PROBE, "MPI_Iprobe", "", 0},
    [SENDS] = {VCMON_SITE_LOOP, 64, 9, ROUNDS, "for", "", 0},
    [SEND] = {VCMON_SITE_COMM, 65, 11, SENDS, "MPI_Send", "", 0},
    [RECVS] = {VCMON_SITE_LOOP, 74, 9, ROUNDS, "for", "", 0},
    [RECV] = {VCMON_SITE_COMM, 75, 11, RECVS, "MPI_Recv", "", 0},
};
VCMON_TEST_UNIT(sites)

static void spin_ms(double ms) {
  const double start = MPI_Wtime();
  while (MPI_Wtime() - start < ms / 1000.0) {
  }
}

int main(int argc, char** argv) {
  PROC_SCOPE(MAIN);
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long checksum = 0, polls = 0;
  {
    LOOP_SCOPE(ROUNDS);
    for (int round = 0; round < kRounds; ++round) {
      vcmon_loop_iter(SITE(ROUNDS));
      spin_ms(5.0 * rank);
      int mine = rank + round, all[64] = {0}, flag = 0;
      MPI_Request request;
      COMM(IALLGATHER, MPI_Iallgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD,
                                      &request));
      unsigned long iterations = 0;
      vcmon_loop_enter(SITE(POLL_TEST));
      while (!flag) {
        ++iterations;
        COMM(TEST, MPI_Test(&request, &flag, MPI_STATUS_IGNORE));
        ++polls;
      }
      vcmon_loop_exit_after(SITE(POLL_TEST), iterations);
      for (int r = 0; r < size && r < 64; ++r)
        checksum += all[r];
      if (rank == 1) {
        vcmon_loop_enter(SITE(SENDS));
        for (int i = 0; i < kMessages; ++i)
          COMM(SEND, MPI_Send(&i, 1, MPI_INT, 0, round, MPI_COMM_WORLD));
        vcmon_loop_exit_after(SITE(SENDS), kMessages);
      } else if (rank == 0 && size > 1) {
        flag = 0;
        iterations = 0;
        vcmon_loop_enter(SITE(POLL_PROBE));
        while (!flag) {
          ++iterations;
          COMM(IPROBE, MPI_Iprobe(1, round, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
          ++polls;
        }
        vcmon_loop_exit_after(SITE(POLL_PROBE), iterations);
        vcmon_loop_enter(SITE(RECVS));
        for (int i = 0; i < kMessages; ++i) {
          int got = -1;
          COMM(RECV, MPI_Recv(&got, 1, MPI_INT, 1, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
          checksum += got;
        }
        vcmon_loop_exit_after(SITE(RECVS), kMessages);
      }
    }
  }
  if (rank == 0)
    printf("polling_loops: checksum %ld, polled %s\n", checksum, polls > 0 ? "yes" : "no");
  MPI_Finalize();
  return 0;
}
