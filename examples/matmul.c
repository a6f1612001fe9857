/* Master-worker matrix multiplication C = A x B, like the paper's experiment (one master, the
 * other ranks workers). The master broadcasts B, hands out blocks of rows of A (the tag is the
 * block index), and takes the results back with MPI_ANY_SOURCE, sending each worker that
 * returns a result the next block, until every block is done. Which worker computes which block
 * depends on timing; the product does not. The master checks it against its own serial product
 * and prints a checksum and "ok".
 *
 * The entries are small integers, so every sum is exact in double precision.
 * Build: mpicc -O2 -o matmul matmul.c    Run: mpiexec -n 4 ./matmul [order]
 * (order: matrix order, a multiple of 16; default 256) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { block_rows = 16, default_order = 256 };

static double a_entry(int i, int k) {
  return (double)((i * 7 + k * 3) % 11 - 5);
}
static double b_entry(int k, int j) {
  return (double)((k * 5 + j * 2) % 13 - 6);
}

/* rows x order block of A times B, into result. */
static void multiply_rows(const double* a_rows, int rows, const double* b, int order,
                          double* result) {
  memset(result, 0, sizeof(double) * (size_t)rows * (size_t)order);
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < order; ++k) {
      const double a = a_rows[(size_t)i * order + k];
      for (int j = 0; j < order; ++j)
        result[(size_t)i * order + j] += a * b[(size_t)k * order + j];
    }
}

static void master(int workers, int order, const double* b) {
  const int blocks = order / block_rows;
  const int stop_tag = blocks;
  const size_t block_size = (size_t)block_rows * order;
  double* a = malloc(sizeof(double) * (size_t)order * order);
  double* c = malloc(sizeof(double) * (size_t)order * order);
  double* result = malloc(sizeof(double) * block_size);
  for (int i = 0; i < order; ++i)
    for (int k = 0; k < order; ++k)
      a[(size_t)i * order + k] = a_entry(i, k);

  int next_block = 0, outstanding = 0;
  for (int worker = 1; worker <= workers; ++worker) {
    if (next_block < blocks) {
      MPI_Send(a + next_block * block_size, (int)block_size, MPI_DOUBLE, worker, next_block,
               MPI_COMM_WORLD);
      ++next_block;
      ++outstanding;
    } else {
      MPI_Send(NULL, 0, MPI_DOUBLE, worker, stop_tag, MPI_COMM_WORLD);
    }
  }
  while (outstanding > 0) {
    MPI_Status status;
    MPI_Recv(result, (int)block_size, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
             &status);
    --outstanding;
    memcpy(c + status.MPI_TAG * block_size, result, sizeof(double) * block_size);
    if (next_block < blocks) {
      MPI_Send(a + next_block * block_size, (int)block_size, MPI_DOUBLE, status.MPI_SOURCE,
               next_block, MPI_COMM_WORLD);
      ++next_block;
      ++outstanding;
    } else {
      MPI_Send(NULL, 0, MPI_DOUBLE, status.MPI_SOURCE, stop_tag, MPI_COMM_WORLD);
    }
  }

  double* expected = malloc(sizeof(double) * (size_t)order * order);
  multiply_rows(a, order, b, order, expected);
  double checksum = 0;
  for (size_t i = 0; i < (size_t)order * order; ++i)
    checksum += c[i] * (double)(i % 97 + 1);
  const int correct = memcmp(c, expected, sizeof(double) * (size_t)order * order) == 0;
  printf("matmul: order %d, %d workers, %d blocks, checksum %.0f, %s\n", order, workers, blocks,
         checksum, correct ? "ok" : "WRONG");
  free(expected);
  free(result);
  free(c);
  free(a);
  if (!correct)
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void worker(int order, const double* b) {
  const int stop_tag = order / block_rows;
  const size_t block_size = (size_t)block_rows * order;
  double* rows = malloc(sizeof(double) * block_size);
  double* result = malloc(sizeof(double) * block_size);
  for (;;) {
    MPI_Status status;
    MPI_Recv(rows, (int)block_size, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == stop_tag)
      break;
    multiply_rows(rows, block_rows, b, order, result);
    MPI_Send(result, (int)block_size, MPI_DOUBLE, 0, status.MPI_TAG, MPI_COMM_WORLD);
  }
  free(result);
  free(rows);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int order = argc > 1 ? atoi(argv[1]) : default_order;
  if (size < 2 || order <= 0 || order % block_rows != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n N (N >= 2) %s [order, a multiple of %d]\n", argv[0],
              block_rows);
    MPI_Finalize();
    return 2;
  }

  double* b = malloc(sizeof(double) * (size_t)order * order);
  if (rank == 0)
    for (int k = 0; k < order; ++k)
      for (int j = 0; j < order; ++j)
        b[(size_t)k * order + j] = b_entry(k, j);
  MPI_Bcast(b, order * order, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    master(size - 1, order, b);
  else
    worker(order, b);
  free(b);
  MPI_Finalize();
  return 0;
}
