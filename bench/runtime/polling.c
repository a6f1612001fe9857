/* A polling loop waiting for a message that comes late: rank 1 sleeps DELAY_MS, then sends one
 * int to rank 0, which spins on MPI_Iprobe or MPI_Test (of an MPI_Irecv) with nothing else in
 * the loop, from MPI_ANY_SOURCE or from rank 1. Prints, for bench/runtime/polling_compare.sh,
 * "polls=<n> seen=<s>": how often it polled, and when it saw the message by its own MPI_Wtime
 * (virtual time under VCMON_WTIME=virtual). Unmonitored it sees it after DELAY_MS; monitored it
 * must see it at the same virtual time, having polled about as often (docs/pmpi.md, "Probes").
 *
 * usage: polling iprobe|test any|source DELAY_MS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 4 || (strcmp(argv[1], "iprobe") && strcmp(argv[1], "test")) ||
      (strcmp(argv[2], "any") && strcmp(argv[2], "source"))) {
    fprintf(stderr, "usage: %s iprobe|test any|source DELAY_MS\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int probe = !strcmp(argv[1], "iprobe");
  const int source = !strcmp(argv[2], "any") ? MPI_ANY_SOURCE : 1;
  const long delay_ms = atol(argv[3]);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    const double start = MPI_Wtime();
    long polls = 0;
    int flag = 0;
    int value = 0;
    MPI_Request request = MPI_REQUEST_NULL;
    if (!probe) {
      MPI_Irecv(&value, 1, MPI_INT, source, 0, MPI_COMM_WORLD, &request);
    }
    while (!flag) {
      if (probe) {
        MPI_Iprobe(source, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      } else {
        MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
      }
      ++polls;
    }
    const double seen = MPI_Wtime() - start;
    if (probe) {
      MPI_Recv(&value, 1, MPI_INT, source, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("polls=%ld seen=%.4f value=%d\n", polls, seen, value);
  } else if (rank == 1) {
    usleep((useconds_t)(delay_ms * 1000));
    const int value = 42;
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
