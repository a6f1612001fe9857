/* Probes and persistent requests. A probe is a record holding its own waiting: rank 1 sends
 * after 100 ms, rank 0 finds the message with MPI_Probe (100 ms delay; the MPI_Recv after it
 * none) and the next one with MPI_Mprobe (100 ms; the MPI_Mrecv none).
 * Then 5 rounds of persistent MPI_Send_init/MPI_Recv_init started with MPI_Startall and
 * completed with MPI_Waitall: exact counts and bytes. Statuses are checked on the way. */
#include "sleep_ms.h"
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static int failures;
static void expect(int condition, const char* what) {
  if (!condition) {
    fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int values[4] = {1, 2, 3, 4};
  MPI_Status status;
  int count = -1;
  if (rank == 1) {
    sleep_ms(100);
    MPI_Send(values, 3, MPI_INT, 0, 11, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    sleep_ms(100);
    MPI_Send(values, 2, MPI_INT, 0, 12, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    expect(status.MPI_SOURCE == 1 && status.MPI_TAG == 11 && count == 3, "Probe status");
    MPI_Recv(values, count, MPI_INT, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, &status);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Message message;
    MPI_Mprobe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &message, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    expect(status.MPI_TAG == 12 && count == 2, "Mprobe status");
    MPI_Mrecv(values, count, MPI_INT, &message, &status);
    expect(message == MPI_MESSAGE_NULL && status.MPI_SOURCE == 1 && status.MPI_TAG == 12,
           "Mrecv status");
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }

  /* Persistent exchange between ranks 0 and 1. */
  if (rank < 2) {
    const int peer = 1 - rank;
    int out[8] = {0}, in[8] = {0};
    MPI_Request requests[2];
    MPI_Send_init(out, 8, MPI_INT, peer, 20, MPI_COMM_WORLD, &requests[0]);
    MPI_Recv_init(in, 8, MPI_INT, peer, 20, MPI_COMM_WORLD, &requests[1]);
    for (int round = 0; round < 5; ++round) {
      out[0] = 100 * rank + round;
      MPI_Startall(2, requests);
      MPI_Status statuses[2];
      MPI_Waitall(2, requests, statuses);
      MPI_Get_count(&statuses[1], MPI_INT, &count);
      expect(in[0] == 100 * peer + round && count == 8 && statuses[1].MPI_SOURCE == peer,
             "persistent round");
    }
    MPI_Request_free(&requests[0]);
    MPI_Request_free(&requests[1]);
  }
  MPI_Finalize();
  return failures != 0;
}
