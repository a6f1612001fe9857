/* MPI 4.0 requests: Isendrecv and Isendrecv_replace from a named source and from MPI_ANY_SOURCE,
 * a generalized request started right after a wildcard receive completed, persistent
 * collectives (Allreduce_init, Bcast_init), neighbourhood collectives on a periodic ring, and
 * traffic on a communicator from Comm_idup. Before: a wildcard Isendrecv waited forever for a
 * stamp (MPICH 4.0 leaves the status of an Isendrecv request unset), and a request that reused
 * the handle of a completed wildcard receive was taken for that receive and its Wait waited for
 * a stamp forever.
 *
 * And persistent collectives were not wrapped: a rank waiting on one counted as running, and a
 * wildcard receive still being decided on another rank (the Irecv below) could not be decided
 * until it had done so, which it never did (3 runs in 10 hung).
 *
 * An Isendrecv from MPI_PROC_NULL still sends (the layer stamps it and leaves the call to MPI).
 *
 * Only the data an Isendrecv received is logged, not its status (see docs/pmpi.md). */
#include "generalized_request.h"
#include "rank_log.h"

static int query_nothing(void* extra, MPI_Status* status) {
  (void)extra;
  set_empty_status(status, 77);
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(3);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = right_of(rank, size), left = left_of(rank, size);
  MPI_Request request;
  MPI_Status status;

  /* From a named source, then from any: each rank's only message with the tag comes from its
   * left, so the data is the same whatever the order. */
  int out = rank * 10, in = -1;
  MPI_Isendrecv(&out, 1, MPI_INT, right, 1, &in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, &status);
  rank_log("Isendrecv from left: %d", in);
  MPI_Isendrecv(&out, 1, MPI_INT, right, 2, &in, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD,
                &request);
  int done = 0;
  while (!done) {
    MPI_Test(&request, &done, &status);
  }
  rank_log("Isendrecv from any (Test): %d", in);

  int values[3] = {rank, rank + 100, rank + 200};
  MPI_Isendrecv_replace(values, 3, MPI_INT, left, 3, right, 3, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  rank_log_ints("Isendrecv_replace from right", values, 3);
  MPI_Isendrecv_replace(values, 3, MPI_INT, left, 4, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &request);
  MPI_Request_get_status(request, &done, MPI_STATUS_IGNORE);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  rank_log_ints("Isendrecv_replace from any", values, 3);

  /* From MPI_PROC_NULL: the receive is done at once and empty, the send still goes right. */
  in = -1;
  MPI_Isendrecv(&out, 1, MPI_INT, right, 41, &in, 1, MPI_INT, MPI_PROC_NULL, 41, MPI_COMM_WORLD,
                &request);
  MPI_Wait(&request, &status);
  int from_left = -1;
  MPI_Recv(&from_left, 1, MPI_INT, left, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  rank_log("Isendrecv from MPI_PROC_NULL: %d untouched, the left sent %d", in, from_left);

  /* A wildcard receive completed, then a generalized request of the program's own: MPI may give
   * it the handle the receive's request had. */
  MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &request);
  MPI_Send(&out, 1, MPI_INT, right, 5, MPI_COMM_WORLD);
  MPI_Wait(&request, &status);
  rank_log("Irecv from any: %d from %d", in, status.MPI_SOURCE);
  for (int round = 0; round < 3; ++round) {
    MPI_Request own;
    MPI_Grequest_start(query_nothing, free_nothing, cancel_nothing, NULL, &own);
    MPI_Grequest_complete(own);
    MPI_Wait(&own, &status);
    rank_log("own generalized request %d: tag %d", round, status.MPI_TAG);
  }

  /* Persistent collectives, entered while a wildcard receive elsewhere may still be decided. */
  int contribution = 0, sum = 0;
  MPI_Request persistent;
  MPI_Allreduce_init(&contribution, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                     &persistent);
  for (int round = 0; round < 3; ++round) {
    contribution = rank + round;
    MPI_Start(&persistent);
    MPI_Wait(&persistent, MPI_STATUS_IGNORE);
    rank_log("Allreduce_init round %d: %d", round, sum);
  }
  MPI_Request_free(&persistent);
  int root_value = rank == 0 ? 42 : -1;
  MPI_Bcast_init(&root_value, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent);
  MPI_Start(&persistent);
  MPI_Wait(&persistent, MPI_STATUS_IGNORE);
  MPI_Request_free(&persistent);
  rank_log("Bcast_init: %d", root_value);

  /* Neighbourhood collectives on a periodic ring: neighbours are left, then right. */
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int to_neighbours[2] = {rank, rank + 100}, from_neighbours[2] = {-1, -1};
  MPI_Neighbor_alltoall(to_neighbours, 1, MPI_INT, from_neighbours, 1, MPI_INT, ring);
  rank_log_ints("Neighbor_alltoall", from_neighbours, 2);
  MPI_Ineighbor_allgather(&rank, 1, MPI_INT, from_neighbours, 1, MPI_INT, ring, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  rank_log_ints("Ineighbor_allgather", from_neighbours, 2);
  MPI_Comm_free(&ring);

  /* A communicator from Comm_idup, used as soon as its request completed. */
  MPI_Comm copy;
  MPI_Comm_idup(MPI_COMM_WORLD, &copy, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&out, 1, MPI_INT, right, 6, &in, 1, MPI_INT, MPI_ANY_SOURCE, 6, copy, &status);
  rank_log("Sendrecv on the idup copy: %d from %d", in, status.MPI_SOURCE);
  MPI_Comm_free(&copy);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
