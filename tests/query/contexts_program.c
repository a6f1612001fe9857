/* Issue 13's case queried while the job runs: work(n) is called from two call sites, with ten
 * times the work (10 n iterations, each some computation and an MPI_Allreduce) at the first.
 * Before them a warm-up call whose records MPI_Pcontrol(2) resets and a call made while
 * MPI_Pcontrol(0) pauses recording: neither may show. Each rank checks its own calling contexts
 * through the C API (vcmon_snapshot_local), rank 0 every rank's (vcmon_snapshot_gather); then
 * the ranks write a profile (MPI_Pcontrol(3)), rank 0 prints "contexts_program: job J ready"
 * and all wait, calling MPI, until the file argv[1] exists (at most 100 s), so that
 * contexts_query.sh can query the job. Exit status 0 when every check holds. Hand-instrumented,
 * as vcmon-instrument would emit it. */
#include "hand_instrumented.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <vcmon/query.h>

enum { MAIN, CALL_WARMUP, CALL_PAUSED, CALL_HEAVY, CALL_LIGHT, WORK, WORK_LOOP, ALLREDUCE };
enum { kN = 20, kSteps = 200000 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 141, 1, -1, "main", "main", 0},
    [CALL_WARMUP] = {VCMON_SITE_CALL, 149, 3, MAIN, "work", "work", 0},
    [CALL_PAUSED] = {VCMON_SITE_CALL, 152, 3, MAIN, "work", "work", 0},
    [CALL_HEAVY] = {VCMON_SITE_CALL, 154, 3, MAIN, "work", "work", 0},
    [CALL_LIGHT] = {VCMON_SITE_CALL, 155, 3, MAIN, "work", "work", 0},
    [WORK] = {VCMON_SITE_PROCEDURE, 36, 1, -1, "work", "work", 0},
    [WORK_LOOP] = {VCMON_SITE_LOOP, 39, 5, WORK, "for", "", 0},
    [ALLREDUCE] = {VCMON_SITE_COMM, 48, 7, WORK_LOOP, "MPI_Allreduce", "", 0},
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

/* What the contexts under call site `call` say of work: activations, the loop's executions and
 * iterations, the Allreduce operations, the time (the call's context time). */
typedef struct work_context {
  unsigned contexts; /* work's contexts under the call: 1, or 0 when the call left none */
  uint64_t activations, loops, iterations, reduces, time_ns;
} work_context;

static work_context work_under(const vcmon_snapshot* s, int index, unsigned call) {
  work_context w = {0};
  const vcmon_context_record* c = NULL;
  const size_t count = vcmon_snapshot_contexts(s, index, &c);
  for (size_t k = 0; k < count; ++k) {
    if (c[k].site != SITE(call)) {
      continue;
    }
    w.time_ns += vcmon_snapshot_context_time(s, index, k);
    const size_t* procs = NULL;
    const size_t n_procs = vcmon_snapshot_context_children(s, index, k, &procs);
    for (size_t p = 0; p < n_procs; ++p) {
      if (c[procs[p]].site != SITE(WORK)) {
        continue;
      }
      ++w.contexts;
      w.activations += c[procs[p]].count;
      const size_t* loops = NULL;
      const size_t n_loops = vcmon_snapshot_context_children(s, index, procs[p], &loops);
      for (size_t l = 0; l < n_loops; ++l) {
        if (c[loops[l]].site != SITE(WORK_LOOP)) {
          continue;
        }
        w.loops += c[loops[l]].count;
        w.iterations += c[loops[l]].iterations;
        const size_t* coms = NULL;
        const size_t n_coms = vcmon_snapshot_context_children(s, index, loops[l], &coms);
        for (size_t m = 0; m < n_coms; ++m) {
          w.reduces += c[coms[m]].site == SITE(ALLREDUCE) ? c[coms[m]].count : 0;
        }
      }
    }
  }
  return w;
}

/* The checks on the index-th rank of `s`; prints each problem, returns how many. */
static int check_rank(const vcmon_snapshot* s, int index, const char* how) {
  const int rank = vcmon_snapshot_rank(s, index);
  const work_context heavy = work_under(s, index, CALL_HEAVY);
  const work_context light = work_under(s, index, CALL_LIGHT);
  const work_context warmup = work_under(s, index, CALL_WARMUP);
  const work_context paused = work_under(s, index, CALL_PAUSED);
  int problems = 0;
  if (heavy.contexts != 1 || heavy.activations != 1 || heavy.loops != 1 ||
      heavy.iterations != 10 * kN || heavy.reduces != 10 * kN) {
    printf("%s rank %d: heavy call: %u contexts, %llu activations, %llu loops, %llu iterations, "
           "%llu Allreduce (wrong)\n",
           how, rank, heavy.contexts, (unsigned long long)heavy.activations,
           (unsigned long long)heavy.loops, (unsigned long long)heavy.iterations,
           (unsigned long long)heavy.reduces);
    ++problems;
  }
  if (light.contexts != 1 || light.activations != 1 || light.loops != 1 || light.iterations != kN ||
      light.reduces != kN) {
    printf("%s rank %d: light call: %u contexts, %llu activations, %llu loops, %llu iterations, "
           "%llu Allreduce (wrong)\n",
           how, rank, light.contexts, (unsigned long long)light.activations,
           (unsigned long long)light.loops, (unsigned long long)light.iterations,
           (unsigned long long)light.reduces);
    ++problems;
  }
  /* Ten times the work: well over 3 times the time however loaded the machine. */
  if (!(light.time_ns > 0 && heavy.time_ns > 3 * light.time_ns)) {
    printf("%s rank %d: heavy call %llu ns, light call %llu ns (wrong)\n", how, rank,
           (unsigned long long)heavy.time_ns, (unsigned long long)light.time_ns);
    ++problems;
  }
  if (warmup.contexts + paused.contexts != 0) {
    printf("%s rank %d: %u contexts of the reset call, %u of the paused call (wrong)\n", how, rank,
           warmup.contexts, paused.contexts);
    ++problems;
  }
  printf("%s rank %d: heavy call %llu iterations %.3f ms, light call %llu iterations %.3f ms\n",
         how, rank, (unsigned long long)heavy.iterations, heavy.time_ns * 1e-6,
         (unsigned long long)light.iterations, light.time_ns * 1e-6);
  return problems;
}

int main(int argc, char** argv) {
  PROC_SCOPE(MAIN);
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(rank + 1);
  CALL(CALL_WARMUP, x = work(kN, x));
  MPI_Pcontrol(2);
  MPI_Pcontrol(0);
  CALL(CALL_PAUSED, x = work(kN, x));
  MPI_Pcontrol(1);
  CALL(CALL_HEAVY, x = work(10 * kN, x));
  CALL(CALL_LIGHT, x = work(kN, x));
  sink = x;

  int problems = 0;
  vcmon_snapshot* local = NULL;
  if (vcmon_snapshot_local(&local) != VCMON_QUERY_OK) {
    printf("rank %d: no local snapshot (wrong)\n", rank);
    ++problems;
  } else {
    problems += check_rank(local, 0, "local");
  }
  vcmon_snapshot_free(local);
  vcmon_snapshot* all = NULL;
  if (vcmon_snapshot_gather(0, &all) != VCMON_QUERY_OK) {
    printf("rank %d: no gathered snapshot (wrong)\n", rank);
    ++problems;
  } else if (rank == 0) {
    for (int i = 0; i < vcmon_snapshot_rank_count(all); ++i) {
      problems += check_rank(all, i, "gathered");
    }
  }
  vcmon_snapshot_free(all);

  MPI_Pcontrol(3);
  if (rank == 0) {
    printf("contexts_program: job %llu ready\n", vcmon_job_id());
    fflush(stdout);
  }
  /* Until the query script is done: every rank keeps calling MPI (its open activations are
   * settled at its MPI calls). */
  const time_t give_up = time(NULL) + 100;
  for (int done = 0; !done;) {
    done = rank == 0 && (argc < 2 || access(argv[1], F_OK) == 0 || time(NULL) > give_up);
    MPI_Bcast(&done, 1, MPI_INT, 0, MPI_COMM_WORLD);
    usleep(20000);
  }
  MPI_Finalize();
  return problems == 0 ? 0 : 1;
}
