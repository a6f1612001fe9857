/* Loops GCC vectorises at -O3: instrumented, they must still be (ProbeScheme tests). */
void axpy(int n, double a, const double* restrict x, double* restrict y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

double dot(int n, const double* x, const double* y) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i] * y[i];
  }
  return s;
}

void row_sums(int m, int n, const double* restrict a, double* restrict y) {
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c)
      y[r] += a[r * n + c];
}
