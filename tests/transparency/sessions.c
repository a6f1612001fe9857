/* An MPI-4 sessions program that never calls MPI_Init: a communicator from the world process
 * set, wildcard receives on it, a duplicate, a blocking and a nonblocking reduction. The layer
 * starts at MPI_Init, so it must pass every call through untouched (docs/pmpi.md, "MPI
 * sessions"); rank 0 prints what it observed, in an order MPI fixes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "sessions: %s failed (%d)\n", what, rc);
    exit(1);
  }
}

int main(void) {
  MPI_Session session;
  check(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session), "MPI_Session_init");
  MPI_Group group;
  check(MPI_Group_from_session_pset(session, "mpi://WORLD", &group), "the world group");
  MPI_Comm comm;
  check(MPI_Comm_create_from_group(group, "vcmon.tests.sessions", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                   &comm),
        "MPI_Comm_create_from_group");
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);

  /* Every other rank sends its rank squared, received from any source; the sum and the count
   * do not depend on the order. */
  int sum = 0, count = 0;
  if (rank == 0) {
    for (int i = 1; i < size; ++i) {
      int value;
      MPI_Status status;
      check(MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 3, comm, &status), "MPI_Recv");
      int received;
      MPI_Get_count(&status, MPI_INT, &received);
      sum += value;
      count += received;
    }
    printf("sessions: %d messages, sum %d\n", count, sum);
  } else {
    const int value = rank * rank;
    check(MPI_Send(&value, 1, MPI_INT, 0, 3, comm), "MPI_Send");
  }

  MPI_Comm dup;
  check(MPI_Comm_dup(comm, &dup), "MPI_Comm_dup");
  int total = 0;
  check(MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, dup), "MPI_Allreduce");
  int largest = -1;
  MPI_Request request;
  check(MPI_Iallreduce(&rank, &largest, 1, MPI_INT, MPI_MAX, comm, &request), "MPI_Iallreduce");
  check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
  if (rank == 0)
    printf("sessions: %d ranks, rank sum %d, largest %d\n", size, total, largest);

  MPI_Comm_free(&dup);
  MPI_Comm_free(&comm);
  MPI_Group_free(&group);
  check(MPI_Session_finalize(&session), "MPI_Session_finalize");
  return 0;
}
