/* multiple_one_thread MODE: a program that asks for MPI_THREAD_MULTIPLE and calls MPI from one
 * thread only (as many do). In each of 10 rounds every rank posts MPI_Irecv(MPI_ANY_SOURCE),
 * sends its rank to its right neighbour, and completes the receive:
 *   wait      MPI_Wait
 *   waitany   MPI_Waitany over the receive alone
 *   file      MPI_Waitany, twice, over an MPI_File_iwrite_at and the receive
 *   ibarrier  MPI_Waitany, twice, over an MPI_Ibarrier and the receive
 *
 * Expected outcome: status 0, the same output with and without vcmon, every run. Before (found
 * 2026-11-30 by a program written to break the monitor): every run at 3 ranks hung. A decision
 * on the wildcard receive, made under the deferred receives' lock, answered a state request on
 * the way, and describing the waiting call took that lock again: with MPI_THREAD_MULTIPLE the
 * lock is real, and the thread waited for itself. */
#include "rank_log.h"
#include "scratch_file.h"

enum { kRounds = 10 };

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "wait";
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int file = strcmp(mode, "file") == 0, ibarrier = strcmp(mode, "ibarrier") == 0;
  if (!file && !ibarrier && strcmp(mode, "wait") != 0 && strcmp(mode, "waitany") != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: multiple_one_thread wait|waitany|file|ibarrier\n");
    MPI_Finalize();
    return 2;
  }
  MPI_File fh = file ? open_scratch_file("multiple_one_thread") : MPI_FILE_NULL;
  int wrong = 0;
  for (int round = 0; round < kRounds; ++round) {
    MPI_Request requests[2];
    int count = 0, in = -1;
    if (file)
      MPI_File_iwrite_at(fh, (MPI_Offset)(rank * sizeof rank), &rank, 1, MPI_INT,
                         &requests[count++]);
    if (ibarrier)
      MPI_Ibarrier(MPI_COMM_WORLD, &requests[count++]);
    MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, &requests[count++]);
    MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, round, MPI_COMM_WORLD);
    if (strcmp(mode, "wait") == 0) {
      MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    } else {
      for (int completed = 0; completed < count; ++completed) {
        int index;
        MPI_Waitany(count, requests, &index, MPI_STATUS_IGNORE);
      }
    }
    wrong += in != (rank + size - 1) % size;
  }
  if (file)
    MPI_File_close(&fh);
  rank_log("%s: %d rounds, %d wrong", mode, kRounds, wrong);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
