/* Nonblocking collectives: Ibcast from a non-zero root and Iallreduce in flight together with
 * ring point-to-point traffic and completed by one Waitall, an in-place Iallreduce completed by a
 * Test polling loop, and Ibarrier. */
#include "rank_log.h"
#include <sched.h>

enum { length = 4 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int root = 1;

  int broadcast[length], contribution[length], maximum[length], outgoing[length], incoming[length];
  for (int i = 0; i < length; ++i) {
    broadcast[i] = rank == root ? 700 + i : -1;
    contribution[i] = rank * (i + 1) - i;
    outgoing[i] = rank * 10 + i;
  }
  MPI_Request requests[4];
  MPI_Ibcast(broadcast, length, MPI_INT, root, MPI_COMM_WORLD, &requests[0]);
  MPI_Iallreduce(contribution, maximum, length, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &requests[1]);
  MPI_Irecv(incoming, length, MPI_INT, left_of(rank, size), 0, MPI_COMM_WORLD, &requests[2]);
  MPI_Isend(outgoing, length, MPI_INT, right_of(rank, size), 0, MPI_COMM_WORLD, &requests[3]);
  MPI_Status statuses[4];
  MPI_Waitall(4, requests, statuses);
  rank_log_ints("Ibcast", broadcast, length);
  rank_log_ints("Iallreduce max", maximum, length);
  rank_log_status("ring receive", &statuses[2], MPI_INT);
  rank_log_ints("ring receive", incoming, length);

  long sums[length];
  for (int i = 0; i < length; ++i)
    sums[i] = (long)rank * 1000000007L + i;
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, sums, length, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &request);
  int flag = 0;
  while (!flag) {
    MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    if (!flag)
      sched_yield();
  }
  rank_log("Iallreduce in place: %ld %ld %ld %ld, request null %d", sums[0], sums[1], sums[2],
           sums[3], request == MPI_REQUEST_NULL);

  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  rank_log("Ibarrier done, request null %d", request == MPI_REQUEST_NULL);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
