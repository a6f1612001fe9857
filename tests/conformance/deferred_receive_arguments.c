/* deferred_receive_arguments type-freed|type-reused|uncommitted|null-buffer: what the program
 * gives MPI_Irecv(MPI_ANY_SOURCE), which the layer posts to MPI only once the message is decided:
 *   type-freed   a vector datatype, freed right after MPI_Irecv returned (MPI keeps what a pending
 *                receive uses); the message comes 100 ms later
 *   type-reused  the same, and a new datatype made after the free (MPICH hands out the freed
 *                handle again)
 *   uncommitted  MPI_ERRORS_RETURN; a datatype never committed, which MPI_Irecv rejects; then a
 *                receive from rank 1 of the message the bad one would have taken
 *   null-buffer  the same with a null buffer for 2 integers
 *
 * Expected outcome: status 0, the same output with and without vcmon. Before (2026-12-03) the
 * deferred receive kept the program's datatype handle and posted it after the free: it crashed in
 * MPI or unpacked by the new type; and it deferred receives MPI rejects, returning success, then
 * took the message and completed without data (the next receive was reported as a deadlock). */
#include "rank_log.h"

#include <string.h>
#include <unistd.h>

enum { kTag = 5 };

static void freed_type(int rank, int reuse) {
  if (rank == 1) {
    const int values[4] = {100, 101, 102, 103};
    MPI_Barrier(MPI_COMM_WORLD);
    usleep(100000);
    MPI_Send(values, 4, MPI_INT, 0, kTag, MPI_COMM_WORLD);
    return;
  }
  MPI_Datatype other = MPI_DATATYPE_NULL;
  if (rank == 0) {
    int buffer[8];
    for (int i = 0; i < 8; ++i)
      buffer[i] = -1;
    MPI_Datatype every_other;
    MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Request request;
    MPI_Irecv(buffer, 2, every_other, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &request);
    MPI_Type_free(&every_other);
    if (reuse) {
      MPI_Type_contiguous(4, MPI_INT, &other);
      MPI_Type_commit(&other);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Status status;
    const int rc = MPI_Wait(&request, &status);
    int count = -1;
    MPI_Get_count(&status, MPI_INT, &count);
    rank_log("wait: rc %d, source %d, count %d", rc, status.MPI_SOURCE, count);
    for (int i = 0; i < 8; ++i)
      rank_log("buffer[%d] = %d", i, buffer[i]);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (other != MPI_DATATYPE_NULL)
    MPI_Type_free(&other);
}

static void rejected(int rank, int uncommitted) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 1) {
    const int values[4] = {1, 2, 3, 4};
    MPI_Send(values, 4, MPI_INT, 0, kTag, MPI_COMM_WORLD);
  } else if (rank == 0) {
    int buffer[4] = {0, 0, 0, 0};
    MPI_Datatype never_committed;
    MPI_Type_contiguous(4, MPI_INT, &never_committed);
    MPI_Request request = MPI_REQUEST_NULL;
    const int rc =
        uncommitted
            ? MPI_Irecv(buffer, 1, never_committed, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &request)
            : MPI_Irecv(NULL, 2, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &request);
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    rank_log("bad receive: error class %d, request null %d", error_class,
             request == MPI_REQUEST_NULL);
    if (request != MPI_REQUEST_NULL)
      rank_log("its wait: rc %d", MPI_Wait(&request, MPI_STATUS_IGNORE));
    const int good = MPI_Recv(buffer, 4, MPI_INT, 1, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    rank_log("good receive: rc %d, %d %d %d %d", good, buffer[0], buffer[1], buffer[2], buffer[3]);
    MPI_Type_free(&never_committed);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "type-freed") == 0 || strcmp(mode, "type-reused") == 0) {
    freed_type(rank, strcmp(mode, "type-reused") == 0);
  } else if (strcmp(mode, "uncommitted") == 0 || strcmp(mode, "null-buffer") == 0) {
    rejected(rank, strcmp(mode, "uncommitted") == 0);
  } else {
    if (rank == 0)
      fprintf(stderr, "usage: %s type-freed|type-reused|uncommitted|null-buffer\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
