/* A program's own error handler on MPI_COMM_WORLD, counting its calls, and receives that
 * truncate (10 ints into 5), completed seven ways: MPI_Recv from a named source and from
 * MPI_ANY_SOURCE; MPI_Irecv completed by MPI_Wait (both sources), MPI_Waitall, MPI_Waitany
 * (MPI_ANY_SOURCE) and an MPI_Test loop. Logs each call's error class and how often the handler
 * ran: once, as MPI calls it once per failed call.
 *
 * Before (found 2026-12-01, sixth adversarial round): monitored, the handler ran twice for
 * MPI_Wait and MPI_Waitall and three times for the MPI_ANY_SOURCE receives completed by
 * MPI_Wait or MPI_Waitany: the layer's own looks at the request (MPI_Request_get_status, the
 * MPI_Test of the receive it posts for a deferred wildcard one) raised the error too. Run with
 * MPI_THREAD_MULTIPLE, where MPICH asserts on any MPI call made inside a handler it calls (the
 * layer's forwarder makes none; a first version asked MPI for the handler in force). */
#include "rank_log.h"

static int handler_calls = 0;

static void count_calls(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  (void)code;
  ++handler_calls;
}

enum Completion { kRecv, kRecvAny, kWait, kWaitAny, kWaitall, kWaitanyAny, kTestLoop, kWays };

int main(int argc, char** argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Errhandler counting;
  MPI_Comm_create_errhandler(count_calls, &counting);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, counting);
  MPI_Errhandler_free(&counting); /* stays in force on MPI_COMM_WORLD */
  static const char* const names[kWays] = {"Recv",
                                           "Recv any",
                                           "Irecv + Wait",
                                           "Irecv any + Wait",
                                           "Irecv + Waitall",
                                           "Irecv any + Waitany",
                                           "Irecv + Test loop"};
  int ten[10] = {0}, five[5];
  for (int way = 0; way < kWays; ++way) {
    if (rank == 1) {
      MPI_Send(ten, 10, MPI_INT, 0, way, MPI_COMM_WORLD);
    } else if (rank == 0) {
      const int any = way == kRecvAny || way == kWaitAny || way == kWaitanyAny;
      const int source = any ? MPI_ANY_SOURCE : 1, before = handler_calls;
      MPI_Status status;
      MPI_Request request;
      int rc, index, done = 0;
      if (way == kRecv || way == kRecvAny) {
        rc = MPI_Recv(five, 5, MPI_INT, source, way, MPI_COMM_WORLD, &status);
      } else {
        MPI_Irecv(five, 5, MPI_INT, source, way, MPI_COMM_WORLD, &request);
        if (way == kWaitall)
          rc = MPI_Waitall(1, &request, &status);
        else if (way == kWaitanyAny)
          rc = MPI_Waitany(1, &request, &index, &status);
        else if (way == kTestLoop)
          do
            rc = MPI_Test(&request, &done, &status);
          while (rc == MPI_SUCCESS && !done);
        else
          rc = MPI_Wait(&request, &status);
      }
      rank_log("%s: class %d, handler calls %d", names[way], error_class_of(rc),
               handler_calls - before);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
