/* A communicator freed while a receive on it is pending: MPI_Comm_free only marks it for
 * deallocation, and the pending receive completes as usual (MPI 4.1 §7.4.3). Rank 0 posts a
 * receive from rank 1 on a duplicate and frees its handle; only then does rank 1 send on its
 * own handle, which it frees afterwards. The other ranks free theirs at once. */
#include "rank_log.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int value = -1;
  MPI_Request request = MPI_REQUEST_NULL;
  if (rank == 0) {
    MPI_Irecv(&value, 1, MPI_INT, 1, 5, dup, &request);
  }
  if (rank != 1) {
    MPI_Comm_free(&dup);
    rank_log("communicator freed: null %d", dup == MPI_COMM_NULL);
  }
  /* Rank 0 has freed its handle before rank 1 sends. */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    const int outgoing = 101;
    MPI_Send(&outgoing, 1, MPI_INT, 0, 5, dup);
    MPI_Comm_free(&dup);
    rank_log("communicator freed after the send: null %d", dup == MPI_COMM_NULL);
  }
  if (rank == 0) {
    MPI_Status status;
    MPI_Wait(&request, &status);
    rank_log_status("receive on the freed communicator", &status, MPI_INT);
    rank_log("receive on the freed communicator: value %d", value);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
