/* kernels: vectorisable loops (axpy, a dot product, a 2-D row sum) called many times over
 * cache-resident arrays, the case where a probe inside a loop body would cost the most: it
 * would stop the vectoriser. Each kernel is its own phase, timed with MPI_Wtime; the ranks
 * work independently and meet in one MPI_Allreduce of the checksum at the end.
 * Usage: mpiexec -n P kernels [array length, default 4096] [repetitions, default 200000]
 * stdout (rank 0): "phase NAME SECONDS" per phase (max over ranks), then "verify CHECKSUM";
 * other lines start with '#'. */
#include "app_arguments.h"
#include "app_memory.h"
#include "app_results.h"
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum phase { phase_axpy, phase_dot, phase_rows, phase_total, phase_count };
static const char* const phase_names[phase_count] = {"axpy", "dot", "rows", "total"};
static double phase_seconds[phase_count];

void axpy(int n, double a, const double* restrict x, double* restrict y) {
  for (int i = 0; i < n; ++i) {
    y[i] += a * x[i];
  }
}

double dot(int n, const double* restrict x, const double* restrict y) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    sum += x[i] * y[i];
  }
  return sum;
}

/* y[r] = sum of row r of the m x c matrix a. */
void row_sums(int m, int c, const double* restrict a, double* restrict y) {
  for (int r = 0; r < m; ++r) {
    double sum = 0.0;
    for (int k = 0; k < c; ++k) {
      sum += a[r * c + k];
    }
    y[r] = sum;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int n = positive_argument(argc, argv, 1, 4096);
  const int repetitions = positive_argument(argc, argv, 2, 200000);
  if (n < 16 || repetitions < 1) {
    if (rank == 0) {
      fprintf(stderr, "usage: kernels [array length >= 16] [repetitions >= 1]\n");
    }
    MPI_Finalize();
    return 1;
  }
  double* x = allocate_mapped((size_t)n, sizeof(double), "kernels");
  double* y = allocate_mapped((size_t)n, sizeof(double), "kernels");
  double* sums = allocate_mapped((size_t)(n / 16 + 1), sizeof(double), "kernels");
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0 / (i + 1 + rank);
    y[i] = 0.0;
  }

  const double start = MPI_Wtime();
  double checksum = 0.0;
  for (int r = 0; r < repetitions; ++r) {
    double t = MPI_Wtime();
    axpy(n, 1e-6, x, y);
    const double after_axpy = MPI_Wtime();
    checksum += dot(n, x, y) * 1e-9;
    const double after_dot = MPI_Wtime();
    row_sums(n / 16, 16, y, sums);
    const double after_rows = MPI_Wtime();
    phase_seconds[phase_axpy] += after_axpy - t;
    phase_seconds[phase_dot] += after_dot - after_axpy;
    phase_seconds[phase_rows] += after_rows - after_dot;
  }
  checksum += sums[0];
  phase_seconds[phase_total] = MPI_Wtime() - start;

  double total = 0.0;
  MPI_Allreduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("# kernels: %d doubles, %d repetitions, %d ranks\n", n, repetitions, ranks);
  }
  print_results(phase_count, phase_names, phase_seconds, total);
  free(x);
  free(y);
  free(sums);
  MPI_Finalize();
  return 0;
}
