/* One procedure or loop for each probing rule (docs/instrument.md); ProbeScheme tests name
 * them by line. */
#include <mpi.h>
#include <stdio.h>

static inline double square(double x) { return x * x; }
double cube(double x) { return square(x) * x; }
static double with_loop(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += i;
  return s;
}
static void says(int v) { printf("%d\n", v); }
static int rank_of(void) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
static int countdown(int n) { return n <= 0 ? 0 : countdown(n - 1); }
static double through_pointer(double (*f)(double)) { return f(2.0); }
static inline double sum3(const double* v) { double s = 0; for (int i = 0; i < 3; ++i) s += v[i]; return s; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const double v[3] = {1, 2, 3};
  double t = cube(3.0) + with_loop(4) + countdown(3) + through_pointer(square) + sum3(v);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 5; ++k)
        t += square((double)k);
    }
    for (int j = 0; j < 2; ++j)
      t += with_loop(j);
  }
  says(rank_of() + (int)t % 2);
  MPI_Finalize();
  return 0;
}
