/* After MPI_Init the program closes standard error and opens a data file, which gets
 * descriptor 2; it writes its data, calls MPI_Finalize and rank 0 prints what its file holds.
 * Before (found 2026-11-30): vcmon's summary line, written to descriptor 2 at MPI_Finalize,
 * landed in the program's file. Its messages now go where standard error was at MPI_Init. */
#include "rank_log.h"

#include <fcntl.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char name[64];
  snprintf(name, sizeof name, "closed_stderr.%d.dat", rank);
  close(STDERR_FILENO);
  const int fd = open(name, O_CREAT | O_TRUNC | O_RDWR, 0644);
  const char data[] = "the program's own data\n";
  if (fd != STDERR_FILENO || write(fd, data, sizeof data - 1) != (ssize_t)(sizeof data - 1)) {
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  char held[256] = {0};
  const ssize_t length = pread(fd, held, sizeof held - 1, 0);
  if (rank == 0) { /* the rank that writes vcmon's summary line */
    printf("rank 0: its file holds %zd bytes: %s", length, held);
  }
  return 0;
}
