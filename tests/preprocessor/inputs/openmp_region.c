/* An OpenMP parallel region holding a loop, and code only an OpenMP build compiles. */
#include <omp.h>

void note_threads(int threads);

double region_sum(const double* values, int n) {
  double sum = 0.0;
#pragma omp parallel reduction(+ : sum)
  {
    const int threads = omp_get_num_threads();
    for (int i = omp_get_thread_num(); i < n; i += threads) {
      sum += values[i];
    }
  }
#ifdef _OPENMP
  note_threads(omp_get_max_threads());
#endif
  return sum;
}
