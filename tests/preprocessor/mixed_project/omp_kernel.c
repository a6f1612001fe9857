/* OpenMP: each thread sums its share of the vector in a plain loop (the loop vcmon probes, on
 * every thread); the threads' sums are added by the reduction. Integer-valued doubles: the sum
 * is exact whatever the thread count. */
#include "mixed.h"

#include <omp.h>

double scaled_sum(const double* values, int n, double factor) {
  double sum = 0.0;
#pragma omp parallel reduction(+ : sum)
  {
    const int threads = omp_get_num_threads();
    const int thread = omp_get_thread_num();
    const int first = (int)((long)n * thread / threads);
    const int last = (int)((long)n * (thread + 1) / threads);
    for (int i = first; i < last; ++i) {
      sum += values[i] * factor;
    }
  }
  return sum;
}
