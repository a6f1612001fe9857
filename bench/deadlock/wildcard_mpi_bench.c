/* MPI-level wildcard-receive benchmark (docs/deadlock.md): the scenarios of the simulation
 * figures run over real MPI, so that libvcmon's decisions go over its real control channel.
 * run_wildcard_bench.sh runs it under each VCMON_DEADLOCK strategy and reads the counters.
 *
 *   mpiexec -n 8 wildcard_mpi_bench master [rounds=40] [seed=1]
 *       1 master + 7 workers (any 2 to 64 ranks: 1 master + N-1 workers): per round each
 *       worker sleeps a distinct seeded 0.2-2 ms and sends its result; the master takes them
 *       with MPI_Recv(MPI_ANY_SOURCE), then sends each worker its next task, which the worker
 *       blocks for (the cycle-breaking case).
 *   mpiexec -n 4 wildcard_mpi_bench ring [rounds=200]
 *       figure 4: P0 sleeps 300 us, sends to P1; P3 sleeps 50 us, receives from P2, sends to
 *       P1; P2 receives from P1, sends to P3; P1 sleeps 100 us, then two wildcard receives,
 *       sending to P2 after the first. A barrier per round. On N ranks (2 to 64) the chain
 *       after P1 is P2 ... P(N-1), the last one sleeping 50 us and sending back to P1; on 2
 *       ranks P0 is the chain (it receives from P1 after its send and answers).
 *   mpiexec -n 2 wildcard_mpi_bench pingpong any|specific [iterations=10000] [samples=15]
 *       8-byte ping-pong, rank 0 receiving with MPI_ANY_SOURCE or from rank 1.
 *
 * The deciding rank prints one line of key=value pairs starting with "result": receives (the
 * wildcard receives it made), the median and 90th percentile of the real time measured around
 * each of them, and per scenario a check (master: how many consecutive results came in the
 * order of the workers' sleeps, 50% being chance; pingpong: the median half round trip over the
 * samples, timed without per-receive timing).
 * Time comes from clock_gettime, not MPI_Wtime, which the monitor could change.
 * Workers sleep with nanosleep rather than spin: the benchmark runs oversubscribed. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { result_tag = 1, task_tag = 2, ring_tag = 3, ping_tag = 4, max_ranks = 64 };

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void sleep_ns(int64_t ns) {
  struct timespec t = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
  while (nanosleep(&t, &t) != 0) {
  }
}

static int compare_i64(const void* a, const void* b) {
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

/* q-quantile (0..1) in microseconds; sorts the samples. */
static double quantile_us(int64_t* ns, int count, double q) {
  if (count == 0)
    return 0.0;
  qsort(ns, (size_t)count, sizeof *ns, compare_i64);
  int i = (int)(q * (count - 1) + 0.5);
  return 1e-3 * (double)ns[i];
}

static void fail(const char* what) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fprintf(stderr, "wildcard_mpi_bench rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

/* splitmix64: every rank derives the same plan from (seed, round) without communicating. */
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Sleeps of workers 1..workers in one round: 0.2-2 ms cut into one slot per worker, a seeded
 * permutation of the slots and a jitter within 80% of a slot, so the sleeps are distinct (by
 * >= 51 us with 7 workers) and the order they finish in is known. */
static void round_sleeps(uint64_t seed, int round, int workers, int64_t sleeps[]) {
  const int64_t low = 200000, slot = (2000000 - 200000) / workers;
  int order[max_ranks];
  for (int i = 0; i < workers; ++i)
    order[i] = i;
  uint64_t state = mix(seed * 1000003u + (uint64_t)round);
  for (int i = workers - 1; i > 0; --i) {
    state = mix(state);
    int j = (int)(state % (uint64_t)(i + 1)), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (int w = 1; w <= workers; ++w) {
    state = mix(state);
    sleeps[w] = low + slot * order[w - 1] + (int64_t)(state % (uint64_t)(slot * 8 / 10));
  }
}

static void master(int rank, int workers, int rounds, uint64_t seed) {
  if (rank != 0) {
    int64_t sleeps[max_ranks];
    for (int r = 0; r < rounds; ++r) {
      round_sleeps(seed, r, workers, sleeps);
      sleep_ns(sleeps[rank]);
      int result[2] = {rank, r};
      MPI_Send(result, 2, MPI_INT, 0, result_tag, MPI_COMM_WORLD);
      int task;
      MPI_Recv(&task, 1, MPI_INT, 0, task_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (task != r + 1)
        fail("wrong task");
    }
    return;
  }
  int64_t* times = malloc(sizeof(int64_t) * (size_t)(rounds * workers));
  int in_order = 0; /* consecutive receipts whose sleeps ascend */
  for (int r = 0; r < rounds; ++r) {
    int64_t sleeps[max_ranks];
    round_sleeps(seed, r, workers, sleeps);
    int seen[max_ranks] = {0};
    int64_t previous_sleep = INT64_MAX;
    for (int i = 0; i < workers; ++i) {
      int result[2];
      MPI_Status status;
      const int64_t start = now_ns();
      MPI_Recv(result, 2, MPI_INT, MPI_ANY_SOURCE, result_tag, MPI_COMM_WORLD, &status);
      times[r * workers + i] = now_ns() - start;
      const int w = status.MPI_SOURCE;
      if (w < 1 || w > workers || seen[w]++ || result[0] != w || result[1] != r)
        fail("wrong result");
      in_order += sleeps[w] > previous_sleep;
      previous_sleep = sleeps[w];
    }
    for (int w = 1; w <= workers; ++w) {
      int task = r + 1;
      MPI_Send(&task, 1, MPI_INT, w, task_tag, MPI_COMM_WORLD);
    }
  }
  const int n = rounds * workers;
  const double median = quantile_us(times, n, 0.5), p90 = quantile_us(times, n, 0.9);
  printf("result scenario=master receives=%d median_recv_us=%.3f p90_recv_us=%.3f "
         "in_order_pairs=%d pairs=%d\n",
         n, median, p90, in_order, rounds * (workers - 1));
  free(times);
}

static void ring(int rank, int size, int rounds) {
  /* P1 -> first_in_chain -> ... -> last_in_chain -> P1; on 2 ranks the chain is P0. */
  const int first_in_chain = size > 2 ? 2 : 0, last_in_chain = size > 2 ? size - 1 : 0;
  int64_t* times = rank == 1 ? malloc(sizeof(int64_t) * (size_t)(2 * rounds)) : NULL;
  int64_t first_total = 0, second_total = 0;
  for (int r = 0; r < rounds; ++r) {
    int value = r, got;
    MPI_Status status;
    if (rank == 0) {
      sleep_ns(300000);
      MPI_Send(&value, 1, MPI_INT, 1, ring_tag, MPI_COMM_WORLD);
    }
    if (rank == 1) {
      sleep_ns(100000);
      int64_t start = now_ns();
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, ring_tag, MPI_COMM_WORLD, &status);
      times[2 * r] = now_ns() - start;
      first_total += times[2 * r];
      /* The chain can only send once it heard from us: the first message is P0's in any
       * execution. */
      if (status.MPI_SOURCE != 0 || got != r)
        fail("first ring receive not from P0");
      MPI_Send(&value, 1, MPI_INT, first_in_chain, ring_tag, MPI_COMM_WORLD);
      start = now_ns();
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, ring_tag, MPI_COMM_WORLD, &status);
      times[2 * r + 1] = now_ns() - start;
      second_total += times[2 * r + 1];
      if (status.MPI_SOURCE != last_in_chain || got != r)
        fail("second ring receive not from the chain's last rank");
    } else if (rank == last_in_chain) {
      sleep_ns(50000);
      MPI_Recv(&got, 1, MPI_INT, rank == 0 ? 1 : rank - 1, ring_tag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(&got, 1, MPI_INT, 1, ring_tag, MPI_COMM_WORLD);
    } else if (rank >= 2) {
      MPI_Recv(&got, 1, MPI_INT, rank - 1, ring_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&got, 1, MPI_INT, rank + 1, ring_tag, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 1) {
    const int n = 2 * rounds;
    const double median = quantile_us(times, n, 0.5), p90 = quantile_us(times, n, 0.9);
    printf("result scenario=ring receives=%d median_recv_us=%.3f p90_recv_us=%.3f "
           "mean_first_us=%.3f mean_second_us=%.3f\n",
           n, median, p90, 1e-3 * (double)first_total / rounds,
           1e-3 * (double)second_total / rounds);
    fflush(stdout);
    free(times);
  }
}

/* Rank 0 sends and waits for the echo (from `source`); rank 1 echoes. With `times`, each of
 * rank 0's receives is timed on its own. */
static void round_trips(int rank, int source, int count, int64_t* times) {
  char buffer[8] = {0};
  for (int i = 0; i < count; ++i) {
    if (rank == 0) {
      MPI_Send(buffer, 8, MPI_BYTE, 1, ping_tag, MPI_COMM_WORLD);
      const int64_t start = times ? now_ns() : 0;
      MPI_Recv(buffer, 8, MPI_BYTE, source, ping_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (times)
        times[i] = now_ns() - start;
    } else {
      MPI_Recv(buffer, 8, MPI_BYTE, 0, ping_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer, 8, MPI_BYTE, 0, ping_tag, MPI_COMM_WORLD);
    }
  }
}

static void pingpong(int rank, int wildcard, int iterations, int samples) {
  const int source = wildcard ? MPI_ANY_SOURCE : 1, warm_up = 100;
  int64_t* sample_ns = malloc(sizeof(int64_t) * (size_t)samples);
  round_trips(rank, source, warm_up, NULL);
  /* Half round trips from whole samples, so per-receive timing does not inflate them. */
  for (int s = 0; s < samples; ++s) {
    MPI_Barrier(MPI_COMM_WORLD);
    const int64_t start = now_ns();
    round_trips(rank, source, iterations, NULL);
    sample_ns[s] = (now_ns() - start) / 2;
  }
  /* Then one sample with every receive timed, for the per-receive column. */
  int64_t* times = rank == 0 ? malloc(sizeof(int64_t) * (size_t)iterations) : NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  round_trips(rank, source, iterations, times);
  if (rank == 0) {
    const double half = quantile_us(sample_ns, samples, 0.5) / iterations;
    const double median = quantile_us(times, iterations, 0.5);
    const double p90 = quantile_us(times, iterations, 0.9);
    printf("result scenario=pingpong source=%s receives=%d median_recv_us=%.3f p90_recv_us=%.3f "
           "half_rtt_us=%.4f\n",
           wildcard ? "any" : "specific", warm_up + (samples + 1) * iterations, median, p90, half);
  }
  free(times);
  free(sample_ns);
}

static int usage(int rank, const char* program) {
  if (rank == 0)
    fprintf(stderr,
            "usage: mpiexec -n 8 %s master [rounds] [seed]   (2 to 64 ranks)\n"
            "       mpiexec -n 4 %s ring [rounds]              (2 to 64 ranks)\n"
            "       mpiexec -n 2 %s pingpong any|specific [iterations] [samples]\n",
            program, program, program);
  MPI_Finalize();
  return 2;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* scenario = argc > 1 ? argv[1] : "";
  if (strcmp(scenario, "master") == 0) {
    const int rounds = argc > 2 ? atoi(argv[2]) : 40;
    const uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    if (size < 2 || size > max_ranks || rounds < 1)
      return usage(rank, argv[0]);
    master(rank, size - 1, rounds, seed);
  } else if (strcmp(scenario, "ring") == 0) {
    const int rounds = argc > 2 ? atoi(argv[2]) : 200;
    if (size < 2 || size > max_ranks || rounds < 1)
      return usage(rank, argv[0]);
    ring(rank, size, rounds);
  } else if (strcmp(scenario, "pingpong") == 0 && argc > 2 &&
             (strcmp(argv[2], "any") == 0 || strcmp(argv[2], "specific") == 0)) {
    const int iterations = argc > 3 ? atoi(argv[3]) : 10000;
    const int samples = argc > 4 ? atoi(argv[4]) : 15;
    if (size != 2 || iterations < 1 || samples < 1)
      return usage(rank, argv[0]);
    pingpong(rank, strcmp(argv[2], "any") == 0, iterations, samples);
  } else {
    return usage(rank, argv[0]);
  }
  MPI_Finalize();
  return 0;
}
