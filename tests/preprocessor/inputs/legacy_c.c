/* Old C that GCC 12 compiles with warnings and Clang 16 rejects by default: a call to an
 * undeclared function, implicit int, an integer taken as a pointer, and a function pointer of
 * another type. vcmon must instrument it, not fall back to plain compilation. */
#include <mpi.h>

static double halve(double x) {
  return x / 2;
}

static twice(x) /* implicit int, K&R parameters */
    int x;
{ return 2 * x; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* name = 0x0; /* fine; the next is not */
  long address = 16;
  char* at = address;
  int (*as_int)(int) = halve;
  int sum = 0;
  for (int i = 0; i < 4; ++i)
    sum += twice(i);
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("sum %d\n", sum); /* no <stdio.h> */
  MPI_Finalize();
  return name == at && as_int != 0 ? 1 : 0;
}
