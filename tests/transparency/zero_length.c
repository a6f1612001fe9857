/* Zero-length messages around the ring: a NULL send buffer, receive buffers that must stay
 * untouched, a count of 0 in units of a derived type, and zero-length collectives. */
#include "rank_log.h"

enum { buffer_length = 8, sentinel = 0x5a };

static void log_untouched(const char* label, const unsigned char* buffer) {
  int untouched = 1;
  for (int i = 0; i < buffer_length; ++i)
    untouched &= buffer[i] == sentinel;
  rank_log("%s: buffer untouched=%d", label, untouched);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = right_of(rank, size), left = left_of(rank, size);
  unsigned char buffer[buffer_length];
  MPI_Status status;
  MPI_Request request;

  memset(buffer, sentinel, sizeof buffer);
  MPI_Irecv(buffer, buffer_length, MPI_BYTE, left, 1, MPI_COMM_WORLD, &request);
  MPI_Send(NULL, 0, MPI_BYTE, right, 1, MPI_COMM_WORLD);
  MPI_Wait(&request, &status);
  rank_log_status("NULL buffer, count 0", &status, MPI_BYTE);
  log_untouched("NULL buffer, count 0", buffer);

  memset(buffer, sentinel, sizeof buffer);
  MPI_Request requests[2];
  MPI_Irecv(buffer, buffer_length / 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
            &requests[0]);
  int unused = 0;
  MPI_Isend(&unused, 0, MPI_INT, right, 2, MPI_COMM_WORLD, &requests[1]);
  MPI_Status statuses[2];
  MPI_Waitall(2, requests, statuses);
  rank_log_status("wildcard receive of count 0", &statuses[0], MPI_INT);
  log_untouched("wildcard receive of count 0", buffer);

  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_SHORT, &pair);
  MPI_Type_commit(&pair);
  memset(buffer, sentinel, sizeof buffer);
  MPI_Sendrecv(&unused, 0, pair, right, 3, buffer, 2, pair, left, 3, MPI_COMM_WORLD, &status);
  rank_log_status("derived type, count 0", &status, pair);
  int elements;
  MPI_Get_elements(&status, pair, &elements);
  rank_log("derived type, count 0: elements=%d", elements);
  log_untouched("derived type, count 0", buffer);
  MPI_Type_free(&pair);

  memset(buffer, sentinel, sizeof buffer);
  if (rank % 2 == 0 && rank + 1 < size) {
    MPI_Ssend(NULL, 0, MPI_INT, rank + 1, 4, MPI_COMM_WORLD);
    rank_log("synchronous count 0 sent");
  } else if (rank % 2 == 1) {
    MPI_Recv(buffer, 2, MPI_INT, rank - 1, 4, MPI_COMM_WORLD, &status);
    rank_log_status("synchronous count 0", &status, MPI_INT);
    log_untouched("synchronous count 0", buffer);
  }

  memset(buffer, sentinel, sizeof buffer);
  MPI_Bcast(buffer, 0, MPI_BYTE, 0, MPI_COMM_WORLD);
  log_untouched("broadcast of count 0", buffer);
  MPI_Allreduce(MPI_IN_PLACE, buffer, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  log_untouched("allreduce of count 0", buffer);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
