/* Loops in OpenMP regions may run on several threads: they never count into a loop outside
 * the region (ProbeScheme tests name the loops by line). */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  double s = 0;
  for (int t = 0; t < 3; ++t) {
#pragma omp parallel
    {
      for (int i = 0; i < 10; ++i)
        s += i;
    }
    for (int j = 0; j < 4; ++j) {
#pragma omp parallel for
      for (int i = 0; i < 10; ++i)
        for (int k = 0; k < 2; ++k)
          s += k;
      for (int q = 0; q < 2; ++q)
        s += q;
    }
  }
  printf("%g\n", s);
  MPI_Finalize();
  return 0;
}
