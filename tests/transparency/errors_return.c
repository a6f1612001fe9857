/* Error handling: with MPI_ERRORS_RETURN, bad arguments (rank, tag, count, root, communicator),
 * a Bsend without an attached buffer and truncated receives return their error class and the
 * program goes on; Waitall reports MPI_ERR_IN_STATUS with per-request error fields; a user error
 * handler is called once per error, also on a duplicate that inherited it. */
#include "rank_log.h"

static int handler_calls, handler_last_class;

static void counting_handler(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  ++handler_calls;
  MPI_Error_class(*code, &handler_last_class);
}

static void bad_arguments(int rank, int size) {
  int value = rank;
  rank_log_return("Send to rank size", MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD));
  rank_log_return("Recv from rank size+3",
                  MPI_Recv(&value, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  rank_log_return("Send with tag -5",
                  MPI_Send(&value, 1, MPI_INT, right_of(rank, size), -5, MPI_COMM_WORLD));
  rank_log_return("Send with count -1",
                  MPI_Send(&value, -1, MPI_INT, right_of(rank, size), 0, MPI_COMM_WORLD));
  MPI_Request request = MPI_REQUEST_NULL;
  rank_log_return("Isend to rank -4",
                  MPI_Isend(&value, 1, MPI_INT, -4, 0, MPI_COMM_WORLD, &request));
  rank_log_return("Bcast from root size", MPI_Bcast(&value, 1, MPI_INT, size, MPI_COMM_WORLD));
  rank_log_return("Send on MPI_COMM_NULL", MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_NULL));
  rank_log_return("Bsend without buffer",
                  MPI_Bsend(&value, 1, MPI_INT, right_of(rank, size), 0, MPI_COMM_WORLD));
}

/* Rank 1 sends four ints with tags 7 and 8 to rank 0, which has room for two with tag 7. */
static void truncation(int rank) {
  int values[4] = {rank, rank + 1, rank + 2, rank + 3};
  if (rank == 1) {
    MPI_Send(values, 4, MPI_INT, 0, 7, MPI_COMM_WORLD);
    MPI_Send(values, 4, MPI_INT, 0, 8, MPI_COMM_WORLD);
    MPI_Send(values, 4, MPI_INT, 0, 7, MPI_COMM_WORLD);
    MPI_Send(values, 4, MPI_INT, 0, 8, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Status status;
    rank_log_return("Recv truncated", MPI_Recv(values, 2, MPI_INT, 1, 7, MPI_COMM_WORLD, &status));
    rank_log("Recv truncated: source=%d tag=%d", status.MPI_SOURCE, status.MPI_TAG);
    MPI_Recv(values, 4, MPI_INT, 1, 8, MPI_COMM_WORLD, &status);
    rank_log_status("Recv after truncation", &status, MPI_INT);

    /* Only one request can be pending: which others MPICH completes once one has failed
     * depends on timing. */
    MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status statuses[2];
    MPI_Irecv(values, 2, MPI_INT, 1, 7, MPI_COMM_WORLD, &requests[0]);
    rank_log_return("Waitall with truncation", MPI_Waitall(2, requests, statuses));
    for (int i = 0; i < 2; ++i) {
      char label[48];
      snprintf(label, sizeof label, "Waitall status %d error field", i);
      rank_log_return(label, statuses[i].MPI_ERROR);
      rank_log("Waitall status %d: source=%d tag=%d", i, statuses[i].MPI_SOURCE,
               statuses[i].MPI_TAG);
    }
    MPI_Recv(values, 4, MPI_INT, 1, 8, MPI_COMM_WORLD, &statuses[0]);
    rank_log_status("Recv after Waitall", &statuses[0], MPI_INT);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Errhandler current;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &current);
  rank_log("world handler is ERRORS_RETURN: %d", current == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&current);

  bad_arguments(rank, size);
  truncation(rank);

  MPI_Errhandler counting;
  MPI_Comm_create_errhandler(counting_handler, &counting);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, counting);
  MPI_Comm duplicate;
  MPI_Comm_dup(MPI_COMM_WORLD, &duplicate);
  int value = rank;
  rank_log_return("Send to rank size with user handler",
                  MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD));
  rank_log_return("Recv with tag -7 on dup with inherited handler",
                  MPI_Recv(&value, 1, MPI_INT, 0, -7, duplicate, MPI_STATUS_IGNORE));
  rank_log("user handler: %d calls, last class %d", handler_calls, handler_last_class);
  MPI_Comm_free(&duplicate);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&counting);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
