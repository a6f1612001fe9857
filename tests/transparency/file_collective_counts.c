/* The statuses of the blocking collective file calls: rank 0 writes 10 ints with
 * MPI_File_write_at_all (the others none), then every rank reads back with MPI_File_read_at_all
 * and MPI_File_read_all, rank 0 asking for 20 ints from offset 0 (the file ends after 10) and
 * the others for 4 ints from offset 32 (past the end). Logs every status's count and what was
 * read.
 *
 * Before (found 2026-12-01, sixth adversarial round): rank 0's reads counted 20 ints monitored,
 * 10 plain. The layer ran them as their nonblocking twins (MPI_File_iread_at_all), whose status
 * in MPICH 4.0 counts what was asked, not what was read. */
#include "rank_log.h"

enum { kWritten = 10, kAsked = 20 };

static void log_read(const char* call, const MPI_Status* status, const int* values, int asked) {
  int count = -1;
  MPI_Get_count(status, MPI_INT, &count);
  long sum = 0;
  for (int i = 0; i < asked; ++i) {
    sum += values[i];
  }
  rank_log("%s: count %d, sum of the buffer %ld", call, count, sum);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* name = "file_collective_counts.dat";
  if (rank == 0) {
    MPI_File_delete(name, MPI_INFO_NULL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File file;
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &file);
  int values[kAsked];
  for (int i = 0; i < kAsked; ++i) {
    values[i] = i + 1;
  }
  MPI_Status status;
  MPI_File_write_at_all(file, 0, values, rank == 0 ? kWritten : 0, MPI_INT, &status);
  int written = -1;
  MPI_Get_count(&status, MPI_INT, &written);
  rank_log("write_at_all: count %d", written);

  const int asked = rank == 0 ? kAsked : 4;
  const MPI_Offset offset = rank == 0 ? 0 : 32 * (MPI_Offset)sizeof(int);
  int read[kAsked] = {0};
  MPI_File_read_at_all(file, offset, read, asked, MPI_INT, &status);
  log_read("read_at_all", &status, read, asked);

  int again[kAsked] = {0};
  MPI_File_seek(file, offset, MPI_SEEK_SET);
  MPI_File_read_all(file, again, asked, MPI_INT, &status);
  log_read("read_all", &status, again, asked);

  MPI_File_close(&file);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_File_delete(name, MPI_INFO_NULL);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
