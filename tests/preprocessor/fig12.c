/* The program graph of Li & Zhang's figure 12 (docs/design.md, "Sites and the program graph") as a
 * real MPI program: main calls p1 and p2, both call p3; p3 holds a communication statement, a call
 * of p4 and a loop with a communication statement and an inner loop calling p4. */
#include <mpi.h>
#include <stdio.h>

static double total;

void p1(int rank);
void p2(int rank);
void p3(int rank);
void p4(int value);

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  p1(rank);
  p2(rank);
  if (rank == 0) {
    printf("total %.1f\n", total);
  }
  MPI_Finalize();
  return 0;
}

void p1(int rank) {
  p3(rank);
}

void p2(int rank) {
  p3(rank + 1);
}

void p3(int rank) {
  int token = rank;
  MPI_Bcast(&token, 1, MPI_INT, 0, MPI_COMM_WORLD);
  p4(token);
  for (int i = 0; i < 3; ++i) {
    MPI_Allreduce(MPI_IN_PLACE, &token, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int j = 0; j < 2; ++j) {
      p4(token + j);
    }
  }
}

void p4(int value) {
  total += value * 0.5;
}
