/* threads_wildcard MODE THREADS [MESSAGES]: MPI_THREAD_MULTIPLE; on rank 0, THREADS threads
 * each receive MESSAGES messages (default 200) from MPI_ANY_SOURCE on MPI_COMM_WORLD at once,
 * with tag 1, by
 *   irecv     MPI_Irecv + MPI_Wait
 *   test      MPI_Irecv + MPI_Test polled until it completes
 *   waitany   two MPI_Irecv + MPI_Waitany + MPI_Wait
 *   testsome  two MPI_Irecv + MPI_Testsome polled until both completed
 *   recv      MPI_Recv
 *   mprobe    MPI_Mprobe + MPI_Mrecv
 *   improbe   MPI_Improbe polled until it finds a message, then MPI_Mrecv
 * while every other rank sends its share. Rank 0 prints the sum of the values received and
 * how many statuses named a wrong tag or a rank that sends nothing.
 *
 * mprobe hung in 1 run of 8 with 4 threads: the stamp of a message one thread's MPI_Mprobe had
 * matched stayed in the inbox until its MPI_Mrecv, another thread's decision chose it again, and
 * that thread waited in PMPI_Mprobe for a further message from its sender, which never came.
 * The polling modes hung with 4 threads (improbe 6 runs of 8, test 5 of 6, testsome 3 of 6): the
 * threads' layer work, all charged to one process clock at once, kept its virtual time at 0
 * while the messages arrived later, so no poll ever reached them (docs/runtime.md, "Threads").
 * irecv hung in 3 runs of 10 on 3 ranks with 2 threads, 6 of 10 with 4: once MPI_Wait had completed
 * a thread's generalized request, MPI gave the freed handle to the other thread's next MPI_Irecv,
 * and the layer, looking the handle up after the wait, took that undecided receive for the one
 * completed and waited for a stamp it never gets.
 *
 * Expected outcome: status 0, the same output with and without vcmon. */
#include "rank_log.h"

#include <pthread.h>

enum { kMaxThreads = 16, kTag = 1 };

enum Mode { kIrecv, kTest, kWaitany, kTestsome, kRecv, kMprobe, kImprobe, kModes };
static const char* const mode_names[kModes] = {"irecv", "test",   "waitany", "testsome",
                                               "recv",  "mprobe", "improbe"};
static enum Mode mode;
static int messages = 200, size;
static long sums[kMaxThreads];
static int wrong[kMaxThreads];

static int unexpected(const MPI_Status* status) {
  return status->MPI_SOURCE < 1 || status->MPI_SOURCE >= size || status->MPI_TAG != kTag;
}

static int receive_one(int* value) {
  MPI_Status status;
  if (mode == kIrecv || mode == kTest) {
    MPI_Request request;
    MPI_Irecv(value, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &request);
    if (mode == kIrecv) {
      MPI_Wait(&request, &status);
    } else {
      for (int done = 0; !done;) {
        MPI_Test(&request, &done, &status);
      }
    }
  } else if (mode == kMprobe || mode == kImprobe) {
    MPI_Message message;
    if (mode == kMprobe) {
      MPI_Mprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &message, &status);
    } else {
      for (int found = 0; !found;) {
        MPI_Improbe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &found, &message, &status);
      }
    }
    MPI_Mrecv(value, 1, MPI_INT, &message, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(value, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &status);
  }
  return unexpected(&status);
}

/* Two at a time: MPI_Waitany over two wildcard receives, then MPI_Wait on the other; or
 * MPI_Testsome over both until both completed. */
static int receive_two(int values[2]) {
  MPI_Request requests[2];
  MPI_Status statuses[2];
  for (int k = 0; k < 2; ++k) {
    MPI_Irecv(&values[k], 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &requests[k]);
  }
  int bad = 0;
  if (mode == kWaitany) {
    int first;
    MPI_Waitany(2, requests, &first, &statuses[0]);
    MPI_Wait(&requests[1 - first], &statuses[1]);
    return unexpected(&statuses[0]) + unexpected(&statuses[1]);
  }
  for (int done = 0; done < 2;) {
    int completed, indices[2];
    MPI_Testsome(2, requests, &completed, indices, statuses);
    for (int k = 0; k < completed; ++k) {
      bad += unexpected(&statuses[k]);
    }
    done += completed;
  }
  return bad;
}

static void* receiver(void* argument) {
  const long thread = (long)argument;
  const int pairs = mode == kWaitany || mode == kTestsome;
  for (int i = 0; i < messages; i += pairs ? 2 : 1) {
    int values[2] = {0, 0};
    wrong[thread] += pairs ? receive_two(values) : receive_one(&values[0]);
    sums[thread] += values[0] + values[1];
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* name = argc > 1 ? argv[1] : "irecv";
  const int threads = argc > 2 ? atoi(argv[2]) : 2;
  messages = argc > 3 ? atoi(argv[3]) : 200;
  mode = kModes;
  for (int m = 0; m < kModes; ++m) {
    if (strcmp(name, mode_names[m]) == 0) {
      mode = (enum Mode)m;
    }
  }
  if (provided < MPI_THREAD_MULTIPLE || size < 2 || threads < 1 || threads > kMaxThreads ||
      messages % 2 != 0 || (threads * messages) % (size - 1) != 0 || mode == kModes) {
    if (rank == 0) {
      fprintf(stderr, "usage: threads_wildcard irecv|test|waitany|testsome|recv|mprobe|improbe "
                      "THREADS [MESSAGES, even, THREADS x MESSAGES a multiple of the senders]\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (rank == 0) {
    pthread_t receivers[kMaxThreads];
    for (long t = 0; t < threads; ++t) {
      pthread_create(&receivers[t], NULL, receiver, (void*)t);
    }
    long total = 0;
    int bad = 0;
    for (int t = 0; t < threads; ++t) {
      pthread_join(receivers[t], NULL);
      total += sums[t];
      bad += wrong[t];
    }
    rank_log("%s: %d threads received %d messages, sum %ld, %d statuses wrong", name, threads,
             threads * messages, total, bad);
  } else {
    const int share = threads * messages / (size - 1);
    for (int i = 0; i < share; ++i) {
      const int value = rank * 100000 + i;
      MPI_Send(&value, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
    }
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
