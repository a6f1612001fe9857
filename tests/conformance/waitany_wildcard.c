/* waitany_wildcard waitany|testsome: 5 ranks. Workers 1-4 compute 50, 100, 150 and 200 ms (a
 * sleep) and run a registered loop of 5000, 3400, 1800 and 0 cheap iterations, then send one
 * message to rank 0 (the master), carrying MPI_Wtime at the send. The master posts
 * 4 x MPI_Irecv(MPI_ANY_SOURCE) and completes them with
 *   waitany   4 x MPI_Waitany
 *   testsome  an MPI_Testsome loop, 200 us between polls
 * and prints whether the receives completed in the order of the senders' MPI_Wtime (MPI matches
 * wildcard receives in the order they were posted, so request i takes the i-th message to
 * arrive, and unmonitored the messages arrive in the order they were sent, 50 ms apart). Run
 * with VCMON_INJECT_PROBE_NS=50000, each loop iteration of a worker costs 50 us more under
 * vcmon (charged to intrusion), so in real time the workers send in the opposite order (worker
 * 1 last: 50 + 250 ms, worker 4 first: 200 ms); with VCMON_WTIME=virtual, MPI_Wtime is the
 * virtual time, which the completions must follow. The master prints on stderr the completion
 * order, the real send order and the order by MPI_Wtime (without load: 1 2 3 4).
 *
 * Expected outcome: status 0, and "in send order" both plain and monitored (docs/deadlock.md:
 * Waitany and Testsome take the message with the earliest virtual time). Before ef57895 the
 * monitor ordered Waitany/Testsome over receives from specific sources only, so over wildcard
 * receives it completed them in the real order 4 3 2 1. With VCMON_DEADLOCK_TIMEOUT_MS=10, the
 * deadlock check of ef57895 overlooked the messages already there for the deferred receives and
 * reported rank 0 deadlocked (2 of 8 runs). The test compared the completion order with the
 * plain run's 1 2 3 4 until a loaded CI machine made the monitored virtual send times differ
 * from the work by more than the 50 ms between workers (1 run in hundreds): virtual time
 * includes the waiting for a core, as real time does. A worker also reads MPI_Wtime after its
 * send and sends that too (tag kTag + 1): on a loaded machine a worker held off the core between
 * its first reading and its send sent 2 ms after the next worker by its stamp, though 2 ms before
 * it by MPI_Wtime (once, in a CI rehearsal), so an order is wrong only when a message taken
 * first was read before one taken later had surely been sent. */
#include "vcmon/probes.h"

#include "sleep_ms.h"

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kWorkers = 4, kTag = 51, kLoopLine = 95 };

/* The static table vcmon-instrument would emit: the workers' loop. */
static const vcmon_site_desc sites[] = {
    {VCMON_SITE_LOOP, kLoopLine, 3, -1, "for", "", VCMON_PROBING_TIMED}};
static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__, 1, sites};
static unsigned work_loop;
__attribute__((constructor)) static void register_unit(void) {
  vcmon_register_unit(&unit, &work_loop);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A worker's message: its rank, the real time it was sent and MPI_Wtime then (the virtual
 * time when the test sets VCMON_WTIME=virtual for the monitored runs). */
struct result {
  double sent_at;
  double wtime;
  int worker;
};

static volatile unsigned sink;

/* Prints on stderr the workers in the order of the time at `field` of their results. */
static void print_send_order(const char* mode, const char* clock, const struct result* results,
                             size_t field) {
  int order[kWorkers];
  double at[kWorkers];
  for (int i = 0; i < kWorkers; ++i) {
    order[i] = i;
    memcpy(&at[i], (const char*)&results[i] + field, sizeof at[i]);
  }
  for (int i = 0; i < kWorkers; ++i)
    for (int j = i + 1; j < kWorkers; ++j)
      if (at[order[j]] < at[order[i]]) {
        const int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
  fprintf(stderr, "%s %s send order:", mode, clock);
  for (int i = 0; i < kWorkers; ++i)
    fprintf(stderr, " %d (+%.1f ms)", results[order[i]].worker,
            (at[order[i]] - at[order[0]]) * 1e3);
  fprintf(stderr, "\n");
}

static void work(int worker) {
  static const int compute_ms[kWorkers + 1] = {0, 50, 100, 150, 200};
  static const int iterations[kWorkers + 1] = {0, 5000, 3400, 1800, 0};
  sleep_ms(compute_ms[worker]);
  vcmon_loop_enter(work_loop);
  for (int i = 0; i < iterations[worker]; ++i) {
    _Static_assert(__LINE__ - 1 == kLoopLine, "site table line of the workers' loop");
    vcmon_loop_iter(work_loop);
    sink += (unsigned)i;
  }
  vcmon_loop_exit(work_loop);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "waitany";
  const int testsome = strcmp(mode, "testsome") == 0;
  if (size != kWorkers + 1 || (!testsome && strcmp(mode, "waitany") != 0)) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n 5 %s waitany|testsome\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Everyone starts at the same (virtual) time. */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) {
    work(rank);
    struct result result = {now_s(), MPI_Wtime(), rank};
    MPI_Send(&result, (int)sizeof result, MPI_BYTE, 0, kTag, MPI_COMM_WORLD);
    /* The message's time lies between the two readings: a rank kept from the core between
     * the first and its send sends later than it says. */
    const double sent_by = MPI_Wtime();
    MPI_Send(&sent_by, 1, MPI_DOUBLE, 0, kTag + 1, MPI_COMM_WORLD);
  } else {
    struct result results[kWorkers];
    MPI_Request requests[kWorkers];
    for (int i = 0; i < kWorkers; ++i)
      MPI_Irecv(&results[i], (int)sizeof results[i], MPI_BYTE, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD,
                &requests[i]);
    int order[kWorkers], done = 0, statuses_agree = 1;
    if (!testsome) {
      for (int i = 0; i < kWorkers; ++i) {
        int index;
        MPI_Status status;
        MPI_Waitany(kWorkers, requests, &index, &status);
        statuses_agree = statuses_agree && status.MPI_SOURCE == results[index].worker;
        order[done++] = index;
      }
    } else {
      while (done < kWorkers) {
        int outcount, indices[kWorkers];
        MPI_Status statuses[kWorkers];
        MPI_Testsome(kWorkers, requests, &outcount, indices, statuses);
        if (outcount == MPI_UNDEFINED)
          break;
        for (int k = 0; k < outcount; ++k) {
          statuses_agree = statuses_agree && statuses[k].MPI_SOURCE == results[indices[k]].worker;
          order[done++] = indices[k];
        }
        if (outcount == 0) {
          struct timespec pause = {0, 200000};
          nanosleep(&pause, NULL);
        }
      }
    }
    double sent_by[kWorkers + 1];
    for (int worker = 1; worker <= kWorkers; ++worker)
      MPI_Recv(&sent_by[worker], 1, MPI_DOUBLE, worker, kTag + 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    /* Out of order only when a message taken first was sent (by MPI_Wtime) after one taken
     * later had surely been sent. */
    int in_send_order = 1;
    for (int i = 1; i < done; ++i)
      in_send_order =
          in_send_order && results[order[i - 1]].wtime <= sent_by[results[order[i]].worker];
    printf("%s: %d receives completed %s, statuses %s\n", mode, done,
           in_send_order ? "in send order" : "out of send order",
           statuses_agree ? "name the senders" : "name other sources");
    fflush(stdout);
    /* For the record (stderr is not compared). */
    fprintf(stderr, "%s completion order:", mode);
    for (int i = 0; i < done; ++i)
      fprintf(stderr, " %d", results[order[i]].worker);
    fprintf(stderr, "\n");
    print_send_order(mode, "real", results, offsetof(struct result, sent_at));
    print_send_order(mode, "MPI_Wtime", results, offsetof(struct result, wtime));
  }
  MPI_Finalize();
  return 0;
}
