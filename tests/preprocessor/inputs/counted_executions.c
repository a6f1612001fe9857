/* Counted loops whose executions are, or are not, their enclosing loop's iterations
 * (OncePerIteration); ProbeScheme tests name them by line. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  long t = 0;
  for (int i = 0; i < 6; ++i) {
    t += i;
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 3; ++k)
        t += k;
    }
    if (i % 2 == 0) {
      for (int j = 0; j < 5; ++j)
        t -= j;
    }
    if (i == 1)
      continue;
    for (int j = 0; j < 2; ++j)
      t += 2 * j;
    for (int j = 0; j < 7; ++j) {
      if (j == 3)
        break;
    }
    for (int j = 0; j < i; ++j)
      t ^= j;
    if (i == 4)
      break;
  }
  printf("%ld\n", t);
  MPI_Finalize();
  return 0;
}
