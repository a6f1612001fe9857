/* Nonblocking MPI-IO requests completed by the blocking completion calls: MPI_Wait on
 * MPI_File_iwrite_at and on MPI_File_iwrite_at_all, MPI_Waitall over two MPI_File_iread_at,
 * MPI_Waitall and a MPI_Waitany loop over a file request beside a ring exchange
 * (MPI_Irecv, MPI_Isend), MPI_Waitany and MPI_Waitsome over a file request and a receive that
 * only a later send of the waiting rank makes possible. Every rank writes its block, reads back
 * its neighbour's and logs what it read, the counts and the order of the Waitany loop's ring
 * requests.
 *
 * Before (found 2026-11-30): MPI_Wait, MPI_Waitall and MPI_Waitany on such a request hung,
 * even on one rank: the layer's wait loop polls MPI_Request_get_status, which never runs the
 * poll function of ROMIO's requests (extended generalized requests), so they never looked
 * complete. Later the same day: MPI_Waitany and MPI_Waitsome over such a request and one the
 * layer tracks hung when only the file request could end them (the layer waited for the other
 * one). */
#include "rank_log.h"

enum { kInts = 16 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_File file;
  MPI_File_open(MPI_COMM_WORLD, "file_requests.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                &file);
  const MPI_Offset block = kInts * sizeof(int);
  int mine[kInts], read[2][kInts / 2];
  for (int i = 0; i < kInts; ++i)
    mine[i] = rank * 1000 + i;
  MPI_Request request;
  MPI_Status status;
  int count = -1;

  MPI_File_iwrite_at(file, rank * block, mine, kInts / 2, MPI_INT, &request);
  MPI_Wait(&request, &status);
  MPI_Get_count(&status, MPI_INT, &count);
  rank_log("Wait on iwrite_at: %d ints", count);
  MPI_File_iwrite_at_all(file, rank * block + block / 2, mine + kInts / 2, kInts / 2, MPI_INT,
                         &request);
  MPI_Wait(&request, &status);
  MPI_Get_count(&status, MPI_INT, &count);
  rank_log("Wait on iwrite_at_all: %d ints", count);
  MPI_File_sync(file);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(file);

  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  MPI_Request reads[2];
  MPI_Status statuses[3];
  MPI_File_iread_at(file, next * block, read[0], kInts / 2, MPI_INT, &reads[0]);
  MPI_File_iread_at(file, next * block + block / 2, read[1], kInts / 2, MPI_INT, &reads[1]);
  MPI_Waitall(2, reads, statuses);
  long sum = 0;
  for (int i = 0; i < kInts / 2; ++i)
    sum += read[0][i] + read[1][i];
  rank_log("Waitall on two iread_at: sum %ld of rank %d's block", sum, next);

  int in = -1, out = rank;
  MPI_Request mixed[3];
  MPI_File_iwrite_at(file, rank * block, mine, kInts / 2, MPI_INT, &mixed[0]);
  MPI_Irecv(&in, 1, MPI_INT, previous, 5, MPI_COMM_WORLD, &mixed[1]);
  MPI_Isend(&out, 1, MPI_INT, next, 5, MPI_COMM_WORLD, &mixed[2]);
  MPI_Waitall(3, mixed, statuses);
  MPI_Get_count(&statuses[0], MPI_INT, &count);
  rank_log("Waitall on iwrite_at and a ring exchange: %d ints, got %d from rank %d", count, in,
           statuses[1].MPI_SOURCE);

  MPI_File_iwrite_at(file, rank * block, mine, kInts / 2, MPI_INT, &mixed[0]);
  MPI_Irecv(&in, 1, MPI_INT, previous, 6, MPI_COMM_WORLD, &mixed[1]);
  MPI_Isend(&out, 1, MPI_INT, next, 6, MPI_COMM_WORLD, &mixed[2]);
  int completed = 0, ring = 0;
  for (int k = 0; k < 3; ++k) {
    int index = -1;
    MPI_Waitany(3, mixed, &index, &status);
    completed |= 1 << index;
    ring += index > 0;
  }
  rank_log("Waitany loop on iwrite_at and a ring exchange: requests completed 0x%x (%d of the "
           "ring), got %d",
           completed, ring, in);

  /* An OR-wait over a file request and a receive only the file request can end at first: the
   * ring's token reaches rank 0's receive only after rank 0 sent it on, after the wait. Waitany
   * with a receive from the previous rank, Waitsome with a wildcard receive. */
  for (int round = 0; round < 2; ++round) {
    int token = -1;
    MPI_File_iwrite_at(file, rank * block, mine, kInts / 2, MPI_INT, &mixed[0]);
    MPI_Irecv(&token, 1, MPI_INT, round == 0 ? previous : MPI_ANY_SOURCE, 8, MPI_COMM_WORLD,
              &mixed[1]);
    if (rank == 0) {
      int first = -1, reported = 0;
      if (round == 0) {
        MPI_Waitany(2, mixed, &first, &status);
        reported = 1;
      } else {
        MPI_Waitsome(2, mixed, &reported, &first, statuses);
      }
      const int start = 1;
      MPI_Send(&start, 1, MPI_INT, next, 8, MPI_COMM_WORLD);
      MPI_Waitall(2, mixed, statuses);
      rank_log("%s on iwrite_at and a receive of the ring's token: %d request(s), first %d; "
               "token %d from rank %d",
               round == 0 ? "Waitany" : "Waitsome", reported, first, token, statuses[1].MPI_SOURCE);
    } else {
      MPI_Waitall(2, mixed, statuses);
      ++token;
      MPI_Send(&token, 1, MPI_INT, next, 8, MPI_COMM_WORLD);
    }
  }

  MPI_File_close(&file);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
