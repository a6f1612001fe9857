/* Error handling: with MPI_ERRORS_RETURN, bad arguments (rank, tag, count, root, communicator),
 * a Bsend without an attached buffer and truncated receives (by every completion call, named
 * and wildcard) return their error class and the program goes on; Waitall reports MPI_ERR_IN_STATUS
 * with per-request error fields; a user error handler is called once per error, also on a duplicate
 * that inherited it. The calls the layer runs as their nonblocking twins (collectives on a
 * communicator it does not monitor, collective file I/O: FileCollectiveWrappers.cpp) fail as
 * themselves. */
#include "rank_log.h"
#include "scratch_file.h"

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
  /* One rank alone calls a collective that MPI rejects at once, then sends to rank 0, which
   * receives from MPI_ANY_SOURCE. The layer's entry once waited for the other members first,
   * and the job ended in a false deadlock report (found 2026-11-30). */
  if (rank == 1) {
    rank_log_return("Bcast from root size+3, alone",
                    MPI_Bcast(&value, 1, MPI_INT, size + 3, MPI_COMM_WORLD));
    MPI_Send(&value, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Status status;
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &status);
    rank_log("Recv after a lone Bcast: %d from rank %d", value, status.MPI_SOURCE);
  }
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

/* A truncated receive, from MPI_ANY_SOURCE (a receive vcmon defers behind a generalized request)
 * and from rank 1, completed by each completion call: the return code, the status's error
 * field where the call sets it (MPI_ERR_IN_STATUS), source and tag. The count is left out: MPI
 * leaves a truncated receive's count to the implementation, and MPICH's differs with the path
 * the message took. Before 2026-11-30 the monitored wildcard receives showed MPI_ERR_OTHER in the
 * error field, and a named receive's Waitsome returned MPI_ERR_TRUNCATE, not MPI_ERR_IN_STATUS. */
static void truncation_by_completion(int rank) {
  static const char* const calls[] = {"Wait",     "Test",     "Waitany", "Testany",
                                      "Waitsome", "Testsome", "Waitall", "Testall"};
  enum { call_count = sizeof calls / sizeof calls[0] };
  for (int from_any = 0; from_any < 2; ++from_any) {
    for (int call = 0; call < call_count; ++call) {
      const int tag = 100 + 10 * from_any + call;
      int values[4] = {1, 2, 3, 4};
      if (rank == 1) {
        MPI_Send(values, 4, MPI_INT, 0, tag, MPI_COMM_WORLD);
        continue;
      }
      if (rank != 0) {
        continue;
      }
      MPI_Request request;
      MPI_Irecv(values, 2, MPI_INT, from_any ? MPI_ANY_SOURCE : 1, tag, MPI_COMM_WORLD, &request);
      MPI_Status status;
      status.MPI_ERROR = MPI_SUCCESS;
      int done = 0, index = 0, rc = MPI_SUCCESS;
      while (!done) {
        switch (call) {
        case 0:
          rc = MPI_Wait(&request, &status);
          done = 1;
          break;
        case 1:
          rc = MPI_Test(&request, &done, &status);
          break;
        case 2:
          rc = MPI_Waitany(1, &request, &index, &status);
          done = 1;
          break;
        case 3:
          rc = MPI_Testany(1, &request, &index, &done, &status);
          break;
        case 4:
          rc = MPI_Waitsome(1, &request, &done, &index, &status);
          break;
        case 5:
          rc = MPI_Testsome(1, &request, &done, &index, &status);
          break;
        case 6:
          rc = MPI_Waitall(1, &request, &status);
          done = 1;
          break;
        case 7:
          rc = MPI_Testall(1, &request, &done, &status);
          break;
        }
        done = done || rc != MPI_SUCCESS;
      }
      char what[48], label[64];
      snprintf(what, sizeof what, "%s truncated, %s", calls[call], from_any ? "any" : "named");
      rank_log_return(what, rc);
      if (rc == MPI_ERR_IN_STATUS) {
        snprintf(label, sizeof label, "%s: error field", what);
        rank_log_return(label, status.MPI_ERROR);
      }
      rank_log("%s: source=%d tag=%d", what, status.MPI_SOURCE, status.MPI_TAG);
    }
  }
}

/* Collectives on an MPI_Comm_idup communicator (not monitored) and collective file I/O, which
 * the layer runs as their nonblocking twins: bad arguments, a bad handle, a user handler. */
static void polled_twins(int rank, int size) {
  MPI_Comm copy;
  MPI_Request made;
  MPI_Comm_idup(MPI_COMM_WORLD, &copy, &made);
  MPI_Wait(&made, MPI_STATUS_IGNORE);
  int value = rank, sum = 0;
  rank_log_return("Bcast from root size on an idup", MPI_Bcast(&value, 1, MPI_INT, size, copy));
  rank_log_return("Allgather count -1 on an idup",
                  MPI_Allgather(&value, -1, MPI_INT, &sum, 1, MPI_INT, copy));
  rank_log_return("Allreduce on an idup", MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, copy));
  rank_log("Allreduce on an idup: %d", sum);
  rank_log_return("Barrier on a bad handle", MPI_Barrier((MPI_Comm)0x84000123));
  MPI_Errhandler counting;
  MPI_Comm_create_errhandler(counting_handler, &counting);
  MPI_Comm_set_errhandler(copy, counting);
  handler_calls = 0;
  rank_log_return("Gather to root -2 on an idup with user handler",
                  MPI_Gather(&value, 1, MPI_INT, &sum, 1, MPI_INT, -2, copy));
  rank_log("user handler on the idup: %d calls, last class %d", handler_calls, handler_last_class);
  MPI_Errhandler_free(&counting);
  MPI_Comm_free(&copy);

  MPI_File file = open_scratch_file("errors_return");
  MPI_Status status;
  rank_log_return("File_write_at_all count -1",
                  MPI_File_write_at_all(file, 0, &value, -1, MPI_INT, &status));
  rank_log_return("File_write_at_all", MPI_File_write_at_all(file, rank * (MPI_Offset)sizeof value,
                                                             &value, 1, MPI_INT, &status));
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  rank_log("File_write_at_all: count %d", count);
  rank_log_return(
      "File_read_at_all past the end",
      MPI_File_read_at_all(file, size * (MPI_Offset)sizeof value, &value, 1, MPI_INT, &status));
  MPI_Get_count(&status, MPI_INT, &count);
  rank_log("File_read_at_all past the end: count %d", count);
  rank_log_return("File_read_all on MPI_FILE_NULL",
                  MPI_File_read_all(MPI_FILE_NULL, &value, 1, MPI_INT, &status));
  MPI_File_close(&file);
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
  truncation_by_completion(rank);
  polled_twins(rank, size);

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
