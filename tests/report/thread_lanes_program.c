/* MPI_THREAD_MULTIPLE with per-thread virtual time (docs/runtime.md, "Threads"): on every rank
 * 4 threads each run kRounds rounds of a probed computation and an exchange around the ring
 * (MPI_Irecv from MPI_ANY_SOURCE with the thread's tag, MPI_Send to the right, MPI_Wait), then
 * main reduces their results. Each thread is charged its own probes and layer work, resumes on
 * its own and never reads behind the others' floor; its tree must still keep every invariant
 * (report_invariants_thread_lanes, with the live publisher on). Hand-instrumented, as
 * vcmon-instrument would emit it. */
#include "hand_instrumented.h"

#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

enum { MAIN, CALL_WORKER, WORKER, ROUNDS, CALL_COMPUTE, COMPUTE, STEPS, IRECV, SEND, WAIT, REDUCE };
enum { kThreads = 4, kRounds = 200, kSteps = 20000 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 71, 1, -1, "main", "main", 0},
    [CALL_WORKER] = {VCMON_SITE_CALL, 83, 5, MAIN, "pthread_create", "pthread_create", 0},
    [WORKER] = {VCMON_SITE_PROCEDURE, 50, 1, -1, "worker", "worker", 0},
    [ROUNDS] = {VCMON_SITE_LOOP, 56, 5, WORKER, "for", "", 0},
    [CALL_COMPUTE] = {VCMON_SITE_CALL, 58, 7, ROUNDS, "compute", "compute", 0},
    [COMPUTE] = {VCMON_SITE_PROCEDURE, 36, 1, -1, "compute", "compute", 0},
    [STEPS] = {VCMON_SITE_LOOP, 40, 5, COMPUTE, "for", "", 0},
    [IRECV] = {VCMON_SITE_COMM, 61, 7, ROUNDS, "MPI_Irecv", "", 0},
    [SEND] = {VCMON_SITE_COMM, 62, 7, ROUNDS, "MPI_Send", "", 0},
    [WAIT] = {VCMON_SITE_COMM, 63, 7, ROUNDS, "MPI_Wait", "", 0},
    [REDUCE] = {VCMON_SITE_COMM, 91, 3, MAIN, "MPI_Allreduce", "", 0},
};
VCMON_TEST_UNIT(sites)

static int rank, size;
static uint64_t results[kThreads];

static uint64_t compute(uint64_t x) {
  PROC_SCOPE(COMPUTE);
  {
    LOOP_SCOPE(STEPS);
    for (int step = 0; step < kSteps; ++step) { /* xorshift rounds: deterministic work */
      vcmon_loop_iter(SITE(STEPS));
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
  }
  return x;
}

static void* worker(void* argument) {
  PROC_SCOPE(WORKER);
  const int tag = (int)(intptr_t)argument;
  uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(rank * kThreads + tag + 1);
  {
    LOOP_SCOPE(ROUNDS);
    for (int round = 0; round < kRounds; ++round) {
      vcmon_loop_iter(SITE(ROUNDS));
      CALL(CALL_COMPUTE, x = compute(x));
      uint64_t got = 0;
      MPI_Request request;
      COMM(IRECV, MPI_Irecv(&got, 1, MPI_UINT64_T, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &request));
      COMM(SEND, MPI_Send(&x, 1, MPI_UINT64_T, (rank + 1) % size, tag, MPI_COMM_WORLD));
      COMM(WAIT, MPI_Wait(&request, MPI_STATUS_IGNORE));
      x ^= got;
    }
  }
  results[tag] = x;
  return NULL;
}

int main(int argc, char** argv) {
  PROC_SCOPE(MAIN);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "thread_lanes: MPI_THREAD_MULTIPLE not provided\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    CALL(CALL_WORKER, pthread_create(&threads[t], NULL, worker, (void*)(intptr_t)t));
  }
  uint64_t local = 0;
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
    local ^= results[t];
  }
  uint64_t all = 0;
  COMM(REDUCE, MPI_Allreduce(&local, &all, 1, MPI_UINT64_T, MPI_BXOR, MPI_COMM_WORLD));
  if (rank == 0) {
    printf("thread_lanes: %d threads x %d rounds, result %016llx\n", kThreads, kRounds,
           (unsigned long long)all);
  }
  MPI_Finalize();
  return 0;
}
