/* Loops after pragmas that a conditional leaves out (HPCCG's `#ifdef USING_OMP`), that the
 * compiler ignores (`#pragma omp` without OpenMP, as LULESH built without it, also written as
 * `_Pragma` or by a macro) and that bind whatever the build (`#pragma GCC ivdep`). */
void scale(double* y, int n, double a) {
#ifdef USING_OMP
#pragma omp parallel for
#endif
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j)
      y[4 * i + j] *= a;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] += 1;
#pragma GCC ivdep
  for (int i = 0; i < n; ++i)
    y[i] -= 1;
#define PFOR _Pragma("omp parallel for")
  _Pragma("omp parallel for")
  for (int i = 0; i < n; ++i)
    y[i] *= 2;
  PFOR
  for (int i = 0; i < n; ++i)
    y[i] *= 0.5;
}
