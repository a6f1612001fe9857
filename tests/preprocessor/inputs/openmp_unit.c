/* A hybrid MPI + OpenMP unit, built with -fopenmp: vcmon-instrument parses it with Clang's
 * omp.h, the compiler builds the instrumented copy with GCC's. */
#include <mpi.h>
#include <omp.h>

double parallel_sum(const double* values, int n) {
  double total = 0.0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < n; ++i) {
    total += values[i] * omp_get_num_threads();
  }
  return total;
}
