/* The program of figure 12 in Li & Zhang's paper as a real MPI program. Its structure gives the six
 * static tables of that figure (docs/design.md, "Sites and the program graph"): main calls p1 and
 * p2, both call p3; p3 has the communication statement e1, a call of p4, and loop1, which holds the
 * communication statement e2 and loop2; loop2 calls p4. p4 only computes and takes most of the
 * time, so the top-down profile leads to it.
 *
 * Every rank exchanges its state with its ring neighbours (e1 to the right, e2 to the left), so
 * the result depends on the neighbours' work; rank 0 prints it.
 * Build: mpicc -O2 -o fig12 fig12.c    Run: mpiexec -n 4 ./fig12 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

enum { loop1_iterations = 3, loop2_iterations = 4, p4_steps = 3000000 };

static int left, right;
static uint64_t state;

/* Rounds of a xorshift generator: deterministic integer work. */
static uint64_t p4(uint64_t x) {
  for (int step = 0; step < p4_steps; ++step) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

static void p3(void) {
  uint64_t incoming;
  MPI_Sendrecv(&state, 1, MPI_UINT64_T, right, 1, &incoming, 1, MPI_UINT64_T, left, 1,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  state = p4(state ^ incoming);
  for (int i = 0; i < loop1_iterations; ++i) {
    MPI_Sendrecv(&state, 1, MPI_UINT64_T, left, 2, &incoming, 1, MPI_UINT64_T, right, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    state ^= incoming;
    for (int j = 0; j < loop2_iterations; ++j)
      state = p4(state + (uint64_t)j);
  }
}

static void p1(void) {
  p3();
}

static void p2(void) {
  p3();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  state = 0x9e3779b97f4a7c15ull * (uint64_t)(rank + 1);
  p1();
  p2();
  if (rank == 0)
    printf("fig12: %d ranks, rank 0 state %016llx\n", size, (unsigned long long)state);
  MPI_Finalize();
  return 0;
}
