/* The mixed project's program: each rank fills a vector, sums it on OpenMP threads, swaps sums
 * with its ring neighbours and rank 0 prints one line, the same for any thread count. */
#include "mixed.h"

#include <mpi.h>
#include <stdio.h>

enum { length = 4096, rounds = 20 };

static void fill(double* values, int rank) {
  for (int i = 0; i < length; ++i) {
    values[i] = (double)((i * 3 + rank) % 7);
  }
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  static double values[length];
  fill(values, rank);
  double total = 0.0;
  for (int round = 0; round < rounds; ++round) {
    const double mine = scaled_sum(values, length, 1.0 + round);
    double left = 0.0, right = 0.0;
    ring_exchange(&mine, &left, &right, rank, ranks);
    total += left + right - 2.0 * mine + sum_of_squares(round);
  }
  double all = 0.0;
  MPI_Reduce(&total, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("mixed: %d ranks, %d rounds, total %.1f\n", ranks, rounds, all);
  }
  MPI_Finalize();
  return 0;
}
