/* Wildcard order by virtual time (docs/design.md, "Wildcard receives in virtual order").
 * Workers 1, 2, 3 work 20, 80 and 160 ms (loops of 5 ms iterations with a loop probe each) and
 * send one message to rank 0, which receives them in MODE:
 *   recv     3 x MPI_Recv(MPI_ANY_SOURCE)
 *   waitany  MPI_Irecv from 1, 2 and 3, then 3 x MPI_Waitany
 *   iprobe   MPI_Iprobe(MPI_ANY_SOURCE) polled every 100 us, then MPI_Recv from the source
 * The driver injects probe cost on workers 1 and 2 so that they send last in real time; the
 * monitored program must still take the messages in virtual order. Rank 0 prints
 *   order: 1 2 3         the sources in the order the receives took them
 *   real order: 1 3 2    the sources sorted by the real time of their sends
 * The 60 and 80 ms between the workers' virtual send times are what scheduling delay the probes
 * cannot see (counted as the program's) may take before the virtual order turns: on a loaded
 * machine 30 ms was once not enough.
 * The message is that real time (CLOCK_MONOTONIC, one time base for the processes of a node). */
#include "vcmon/probes.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kWorkers = 3, kIterationMs = 5, kTag = 7 };

/* The static table vcmon-instrument would emit: the workers' loop. */
static const vcmon_site_desc sites[] = {{VCMON_SITE_LOOP, 65, 5, -1, "for", "", VCMON_PROBING_TIMED}};
static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__, 1, sites};
static unsigned work_loop;
__attribute__((constructor)) static void register_unit(void) {
  vcmon_register_unit(&unit, &work_loop);
}

static void sleep_ns(long ns) {
  struct timespec t = {ns / 1000000000L, ns % 1000000000L};
  while (nanosleep(&t, &t) != 0) {
  }
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int work_ms_of(int rank) {
  static const int work_ms[kWorkers + 1] = {0, 20, 80, 160};
  return work_ms[rank];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  if (size != kWorkers + 1 ||
      (strcmp(mode, "recv") != 0 && strcmp(mode, "waitany") != 0 && strcmp(mode, "iprobe") != 0)) {
    if (rank == 0) {
      fprintf(stderr, "usage: mpiexec -n 4 %s recv|waitany|iprobe\n", argv[0]);
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Everyone starts working at the same (virtual) time. */
  MPI_Barrier(MPI_COMM_WORLD);

  if (rank != 0) {
    vcmon_loop_enter(work_loop);
    for (int i = 0; i < work_ms_of(rank) / kIterationMs; ++i) {
      vcmon_loop_iter(work_loop);
      sleep_ns(kIterationMs * 1000000L);
    }
    vcmon_loop_exit(work_loop);
    double sent_at = now_s();
    MPI_Send(&sent_at, 1, MPI_DOUBLE, 0, kTag, MPI_COMM_WORLD);
  } else {
    int order[kWorkers];
    double sent_at[kWorkers + 1] = {0};
    if (strcmp(mode, "recv") == 0) {
      for (int i = 0; i < kWorkers; ++i) {
        double value;
        MPI_Status status;
        MPI_Recv(&value, 1, MPI_DOUBLE, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &status);
        order[i] = status.MPI_SOURCE;
        sent_at[status.MPI_SOURCE] = value;
      }
    } else if (strcmp(mode, "waitany") == 0) {
      MPI_Request requests[kWorkers];
      double values[kWorkers];
      for (int w = 0; w < kWorkers; ++w) {
        MPI_Irecv(&values[w], 1, MPI_DOUBLE, w + 1, kTag, MPI_COMM_WORLD, &requests[w]);
      }
      for (int i = 0; i < kWorkers; ++i) {
        int index;
        MPI_Status status;
        MPI_Waitany(kWorkers, requests, &index, &status);
        if (index == MPI_UNDEFINED || status.MPI_SOURCE != index + 1) {
          fprintf(stderr, "MPI_Waitany: index %d, source %d\n", index, status.MPI_SOURCE);
          MPI_Abort(MPI_COMM_WORLD, 1);
        }
        order[i] = status.MPI_SOURCE;
        sent_at[status.MPI_SOURCE] = values[index];
      }
    } else {
      for (int i = 0; i < kWorkers; ++i) {
        int found = 0;
        MPI_Status status;
        for (;;) {
          MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &found, &status);
          if (found) {
            break;
          }
          sleep_ns(100000);
        }
        double value;
        MPI_Recv(&value, 1, MPI_DOUBLE, status.MPI_SOURCE, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        order[i] = status.MPI_SOURCE;
        sent_at[status.MPI_SOURCE] = value;
      }
    }
    printf("order: %d %d %d\n", order[0], order[1], order[2]);
    /* Sources by real send time: selection sort of three. */
    int real[kWorkers] = {1, 2, 3};
    for (int i = 0; i < kWorkers; ++i) {
      for (int j = i + 1; j < kWorkers; ++j) {
        if (sent_at[real[j]] < sent_at[real[i]]) {
          const int t = real[i];
          real[i] = real[j];
          real[j] = t;
        }
      }
    }
    printf("real order: %d %d %d (sent at +%.1f, +%.1f, +%.1f ms)\n", real[0], real[1], real[2],
           (sent_at[real[0]] - sent_at[real[0]]) * 1e3, (sent_at[real[1]] - sent_at[real[0]]) * 1e3,
           (sent_at[real[2]] - sent_at[real[0]]) * 1e3);
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
