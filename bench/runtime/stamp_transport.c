// How much a stamp's transport costs an 8-byte ping-pong, without the layer: plain, plus a
// 32-byte stamp message on a duplicate communicator ahead of each data message (received with
// Irecv and a Test loop, as a polled wait would), plus a 32-byte stamp through a shared-memory
// ring (written before the send, spun on before the receive). The three modes alternate within
// one run, ROUNDS times; the table gives per mode the median of the per-round medians. This is
// the measurement behind StampMail (docs/transparency.md).
//
// usage: mpiexec -n 2 bench_stamp_transport [rounds] [round trips per sample]
#include <mpi.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kModes = 3, kSamples = 15, kSlots = 64 };
static const char* const kModeNames[kModes] = {"plain", "stamp as an MPI message",
                                               "stamp through shared memory"};

typedef struct {
  _Alignas(64) _Atomic uint64_t filled;
  uint64_t stamp[4];
} Slot;

typedef struct {
  Slot slot[kSlots];
} Ring;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* values, int n) {
  qsort(values, (size_t)n, sizeof *values, by_value);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rounds = argc > 1 ? atoi(argv[1]) : 5;
  const int trips = argc > 2 ? atoi(argv[2]) : 20000;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  if (size != 2 || node_size != 2 || rounds < 1 || trips < 1) {
    if (rank == 0) {
      fprintf(stderr,
              "usage: mpiexec -n 2 %s [rounds >= 1] [round trips >= 1]"
              " (both ranks on one node)\n",
              argv[0]);
    }
    MPI_Finalize();
    return 2;
  }
  const int peer = 1 - rank;
  MPI_Comm stamps;
  MPI_Comm_dup(MPI_COMM_WORLD, &stamps);
  Ring* mine = NULL;
  Ring* theirs = NULL;
  MPI_Win window;
  MPI_Win_allocate_shared(sizeof(Ring), 64, MPI_INFO_NULL, node, &mine, &window);
  memset(mine, 0, sizeof(Ring));
  MPI_Aint bytes = 0;
  int unit = 0;
  MPI_Win_shared_query(window, peer, &bytes, &unit, &theirs);
  MPI_Barrier(MPI_COMM_WORLD);

  uint64_t sent = 0, taken = 0;
  char data[8] = {0};
  uint64_t stamp[4] = {1, 2, 3, 4};
  double per_round[kModes][64];
  const int kept = rounds < 64 ? rounds : 64;
  for (int round = 0; round < kept; ++round) {
    for (int m = 0; m < kModes; ++m) {
      const int mode = (m + round) % kModes; // which mode goes first rotates
      double samples[kSamples];
      for (int s = 0; s < kSamples; ++s) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = now_us();
        for (int i = 0; i < trips; ++i) {
          for (int turn = 0; turn < 2; ++turn) {
            if (turn == rank) {
              if (mode == 1) {
                MPI_Send(stamp, 32, MPI_BYTE, peer, 0, stamps);
              } else if (mode == 2) {
                Slot* slot = &theirs->slot[sent % kSlots];
                memcpy(slot->stamp, stamp, sizeof stamp);
                atomic_store_explicit(&slot->filled, ++sent, memory_order_release);
              }
              MPI_Send(data, 8, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
            } else {
              if (mode == 1) {
                MPI_Request request;
                int done = 0;
                MPI_Irecv(stamp, 32, MPI_BYTE, peer, 0, stamps, &request);
                while (!done) {
                  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
                }
              } else if (mode == 2) {
                Slot* slot = &mine->slot[taken % kSlots];
                ++taken;
                while (atomic_load_explicit(&slot->filled, memory_order_acquire) != taken) {
                }
                memcpy(stamp, slot->stamp, sizeof stamp);
              }
              MPI_Recv(data, 8, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
          }
        }
        samples[s] = (now_us() - start) / trips / 2;
      }
      per_round[mode][round] = median(samples, kSamples);
    }
  }
  if (rank == 0) {
    printf("8 B ping-pong half round trip, median of %d rounds (%d samples of %d round trips)\n",
           kept, kSamples, trips);
    printf("%-30s %10s %8s\n", "mode", "us", "ratio");
    const double plain = median(per_round[0], kept);
    for (int mode = 0; mode < kModes; ++mode) {
      const double us = median(per_round[mode], kept);
      printf("%-30s %10.3f %8.3f\n", kModeNames[mode], us, us / plain);
    }
  }
  MPI_Win_free(&window);
  MPI_Comm_free(&stamps);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
