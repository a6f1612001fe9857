/* Hybrid MPI + OpenMP: a 1-D heat equation, explicit steps. Each rank holds a block of the rod
 * and exchanges one ghost point with each neighbour (MPI, on the main thread only:
 * MPI_THREAD_FUNNELED); each step's update runs in an OpenMP parallel region where every thread
 * relaxes its own share of the block in a plain loop, the loop vcmon probes (a loop right after
 * a `#pragma omp for` is left alone, docs/instrument.md). The largest change of a step is
 * reduced over the threads (OpenMP) and the ranks (MPI_Allreduce); max is exact, so the output
 * is the same for any number of threads and of ranks dividing the rod.
 *
 * Build: mpicc -fopenmp -O2 -o heat heat.c      (or vcmon-mpicc, the same flags)
 * Run:   OMP_NUM_THREADS=2 mpiexec -n 2 ./heat [steps]   (default 100 steps)
 * Prints: heat: 2 ranks, 2 threads, 100 steps, max change 0.001212, heat 128.000000 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { rod_points = 1 << 16 };

/* The rod starts cold but for a hot band in its middle; the ends stay at 0. */
static double initial_temperature(long point) {
  return (point >= rod_points / 2 - 64 && point < rod_points / 2 + 64) ? 1.0 : 0.0;
}

/* One explicit step of the points 1..n of `old` (0 and n+1 are ghosts) into `next`; returns the
 * largest change. Each thread of the region takes a contiguous share. */
static double relax(const double* old, double* next, int n) {
  double change = 0.0;
#pragma omp parallel reduction(max : change)
  {
    const int threads = omp_get_num_threads();
    const int thread = omp_get_thread_num();
    const int first = 1 + (int)((long)n * thread / threads);
    const int last = 1 + (int)((long)n * (thread + 1) / threads);
    for (int i = first; i < last; ++i) {
      next[i] = 0.5 * old[i] + 0.25 * (old[i - 1] + old[i + 1]);
      const double delta = next[i] > old[i] ? next[i] - old[i] : old[i] - next[i];
      if (delta > change) {
        change = delta;
      }
    }
  }
  return change;
}

/* Ghost points from the neighbours (the rod's ends are held at 0). */
static void exchange_ghosts(double* t, int n, int rank, int ranks) {
  const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int right = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(&t[n], 1, MPI_DOUBLE, right, 0, &t[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&t[1], 1, MPI_DOUBLE, left, 1, &t[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  if (left == MPI_PROC_NULL) {
    t[0] = 0.0;
  }
  if (right == MPI_PROC_NULL) {
    t[n + 1] = 0.0;
  }
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int steps = argc > 1 ? atoi(argv[1]) : 100;
  if (provided < MPI_THREAD_FUNNELED || rod_points % ranks != 0 || steps < 1) {
    if (rank == 0) {
      fprintf(stderr, "heat: needs MPI_THREAD_FUNNELED, ranks dividing %d, steps >= 1\n",
              rod_points);
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int n = rod_points / ranks;
  double* t = malloc(sizeof(double) * (size_t)(n + 2));
  double* next = malloc(sizeof(double) * (size_t)(n + 2));
  if (t == NULL || next == NULL) {
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
#pragma omp parallel for
  for (int i = 1; i <= n; ++i) {
    t[i] = initial_temperature((long)rank * n + i - 1);
  }

  double change = 0.0;
  for (int step = 0; step < steps; ++step) {
    exchange_ghosts(t, n, rank, ranks);
    const double local = relax(t, next, n);
    MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double* swap = t;
    t = next;
    next = swap;
  }

  /* The heat in the rod (a sum in a fixed order per rank, then over the ranks). */
  double heat = 0.0;
  for (int i = 1; i <= n; ++i) {
    heat += t[i];
  }
  double total = 0.0;
  MPI_Reduce(&heat, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("heat: %d ranks, %d threads, %d steps, max change %.6f, heat %.6f\n", ranks,
           omp_get_max_threads(), steps, change, total);
  }
  free(t);
  free(next);
  MPI_Finalize();
  return 0;
}
