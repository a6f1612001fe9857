/* threads_poll_and_block MODE [ROUNDS]: MPI_THREAD_MULTIPLE; every rank runs two threads, each
 * on its own duplicate of MPI_COMM_WORLD. Every round each thread sends one message to the same
 * thread of every other rank and takes as many, from MPI_ANY_SOURCE: the first thread by
 * polling (MODE iprobe: MPI_Iprobe until it finds one, then MPI_Recv from the source it names;
 * improbe: MPI_Improbe, then MPI_Mrecv), the second by MPI_Recv; then a barrier on its
 * communicator. Rank 0 prints every rank's sums.
 *
 * Hung in every run (2026-12-01, sixth adversarial round): a polling thread's wildcard decision
 * asked other ranks for their states while still holding the stamps' lock, and the other
 * thread, already asking and serving the requests that came meanwhile, waited for that lock to
 * file the stamps the answers carried.
 *
 * Expected outcome: status 0, the same output with and without vcmon. */
#include "rank_log.h"

#include <pthread.h>

static int rank, size, rounds = 100, use_improbe;
static MPI_Comm comms[2];
static long sums[2];

static int take_polled(MPI_Comm comm) {
  int value = 0, found = 0;
  MPI_Status status;
  if (use_improbe) {
    MPI_Message message = MPI_MESSAGE_NULL;
    while (!found) {
      MPI_Improbe(MPI_ANY_SOURCE, 0, comm, &found, &message, &status);
    }
    MPI_Mrecv(&value, 1, MPI_INT, &message, &status);
  } else {
    while (!found) {
      MPI_Iprobe(MPI_ANY_SOURCE, 0, comm, &found, &status);
    }
    MPI_Recv(&value, 1, MPI_INT, status.MPI_SOURCE, 0, comm, &status);
  }
  return value;
}

static void* exchange(void* argument) {
  const int thread = (int)(long)argument;
  const MPI_Comm comm = comms[thread];
  for (int round = 0; round < rounds; ++round) {
    const int value = rank + 1 + round;
    for (int to = 0; to < size; ++to) {
      if (to != rank) {
        MPI_Send(&value, 1, MPI_INT, to, 0, comm);
      }
    }
    for (int k = 0; k < size - 1; ++k) {
      if (thread == 0) {
        sums[thread] += take_polled(comm);
      } else {
        int got = 0;
        MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 0, comm, MPI_STATUS_IGNORE);
        sums[thread] += got;
      }
    }
    MPI_Barrier(comm);
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "iprobe";
  rounds = argc > 2 ? atoi(argv[2]) : 100;
  use_improbe = strcmp(mode, "improbe") == 0;
  if (provided < MPI_THREAD_MULTIPLE || size < 2 || rounds < 1 ||
      (!use_improbe && strcmp(mode, "iprobe") != 0)) {
    if (rank == 0) {
      fprintf(stderr, "usage: threads_poll_and_block iprobe|improbe [ROUNDS] (2 or more ranks, "
                      "MPI_THREAD_MULTIPLE)\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  pthread_t threads[2];
  for (long t = 0; t < 2; ++t) {
    pthread_create(&threads[t], NULL, exchange, (void*)t);
  }
  for (int t = 0; t < 2; ++t) {
    pthread_join(threads[t], NULL);
  }
  rank_log("rank %d: polled sum %ld, blocking sum %ld", rank, sums[0], sums[1]);
  MPI_Comm_free(&comms[0]);
  MPI_Comm_free(&comms[1]);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
