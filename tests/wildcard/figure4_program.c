/* The waiting cycle of the paper's figure 4 (docs/design.md, "Waiting cycles"), on 4 ranks:
 *   P0 works 30 ms, sends to P1;
 *   P1 works 10 ms, receives twice from MPI_ANY_SOURCE, sending to P2 after the first receive;
 *   P2 receives from P1, sends to P3;
 *   P3 works 5 ms, receives from P2, sends to P1.
 * When P1's first receive is undecided, P0's message is there (virtual 30 ms) but P3 is at
 * virtual 5 ms and could, as far as the safe rule knows, still send earlier; P3 waits for P2,
 * which waits for P1. The only outcome of the program is that P1 takes P0's message first and
 * P3's second; the monitor must find it by breaking the cycle (or by null messages) instead
 * of waiting forever. P1 prints "P1 took 0 then 3". */
#include "sleep_ms.h"
#include <mpi.h>
#include <stdio.h>
#include <time.h>

enum { kTag = 4 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    if (rank == 0) {
      fprintf(stderr, "figure4_program needs 4 ranks\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int value = rank;
  int ok = 1;
  if (rank == 0) {
    sleep_ms(30);
    MPI_Send(&value, 1, MPI_INT, 1, kTag, MPI_COMM_WORLD);
  } else if (rank == 1) {
    sleep_ms(10);
    MPI_Status first, second;
    int a = -1, b = -1;
    MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &first);
    MPI_Send(&value, 1, MPI_INT, 2, kTag, MPI_COMM_WORLD);
    MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &second);
    /* The payload is the sender's rank: status and data must agree. */
    ok = a == first.MPI_SOURCE && b == second.MPI_SOURCE;
    printf("P1 took %d then %d%s\n", first.MPI_SOURCE, second.MPI_SOURCE,
           ok ? "" : " (payload does not match the status)");
    fflush(stdout);
  } else if (rank == 2) {
    int from1;
    MPI_Recv(&from1, 1, MPI_INT, 1, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_INT, 3, kTag, MPI_COMM_WORLD);
  } else {
    sleep_ms(5);
    int from2;
    MPI_Recv(&from2, 1, MPI_INT, 2, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_INT, 1, kTag, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
