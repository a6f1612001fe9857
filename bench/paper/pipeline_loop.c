/* The loop of the paper's data-volume comparison (Li & Zhang, section 6.4.2): in each
 * iteration a process receives an offset and a block from its left neighbour, calls `cal` on
 * the block and sends an offset and a block to its right neighbour: four communication
 * statements in a loop. Ranks form a line 0 -> 1 -> ... -> N-1 (the paper's processor 5
 * between 4 and 6); the first rank only sends, the last only receives. (A ring would make
 * every message wait for its receiver to be scheduled: with more ranks than cores, minutes.)
 *
 * Prints "verify VALUE" (rank N-1's sum over every block it received). A trace of this
 * program grows with `iterations`; its profile should not (bench/paper/run.sh, table 2).
 * Usage: mpiexec -n N (N >= 2) pipeline_loop [iterations=200] [block=256 doubles] */
#include "../apps/app_arguments.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { offset_tag = 1, block_tag = 2, default_iterations = 200, default_block = 256 };

/* The per-iteration work: a damped update of the block, long enough to be timed by itself. */
static double cal(double* block, int length, int offset) {
  double sum = 0.0;
  for (int i = 0; i < length; ++i) {
    block[i] = 0.5 * block[i] + 0.25 * (double)((offset + i) % 17);
    sum += block[i];
  }
  return sum;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = positive_argument(argc, argv, 1, default_iterations);
  const int length = positive_argument(argc, argv, 2, default_block);
  if (size < 2 || iterations < 1 || length < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n N (N >= 2) %s [iterations] [block length]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  double* block = calloc((size_t)length, sizeof(double));
  const int left = rank - 1, right = rank + 1;
  double total = 0.0;
  for (int iteration = 0; iteration < iterations; ++iteration) {
    int offset = iteration;
    if (left >= 0) {
      MPI_Recv(&offset, 1, MPI_INT, left, offset_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(block, length, MPI_DOUBLE, left, block_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    total += cal(block, length, offset);
    if (right < size) {
      MPI_Send(&offset, 1, MPI_INT, right, offset_tag, MPI_COMM_WORLD);
      MPI_Send(block, length, MPI_DOUBLE, right, block_tag, MPI_COMM_WORLD);
    }
  }
  if (rank == size - 1)
    printf("verify %.10e\n", total);
  free(block);
  MPI_Finalize();
  return 0;
}
