/* short_timeout [ROUNDS]: a correct program of about 0.5 s whose ranks compute uneven amounts
 * (sleeps of 5-40 ms that depend on rank and round) between waits of several kinds, ROUNDS
 * times (default 4):
 *   - a pipeline: rank r waits in MPI_Recv for rank r - 1, which computes first;
 *   - MPI_Irecv from the left + MPI_Isend to the right + MPI_Waitall, after uneven compute;
 *   - MPI_Barrier after uneven compute;
 *   - rank 0 receives one message from every other rank with MPI_Recv(MPI_ANY_SOURCE) while
 *     they compute different times; it logs the sources sorted (their order is MPI's choice).
 * Every rank prints what it received.
 *
 * The tests run it monitored with VCMON_DEADLOCK_TIMEOUT_MS=10 (the documented minimum), so
 * that every wait above runs the monitor's deadlock check, several times.
 * Expected outcome: status 0, the same output as unmonitored, and no "vcmon: deadlock" line:
 * a check must never report a program that goes on. */
#include "rank_log.h"
#include "sleep_ms.h"

enum { kPipeTag = 81, kRingTag = 82, kGatherTag = 83 };

/* Uneven compute: 5-40 ms, different per rank and round. */
static void compute(int rank, int round, int salt) {
  sleep_ms(5 + (rank * 7 + round * 11 + salt * 5) % 36);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 4;
  long total = 0;
  for (int round = 0; round < rounds; ++round) {
    /* Pipeline of blocking receives. */
    int token = round;
    if (rank > 0) {
      MPI_Recv(&token, 1, MPI_INT, rank - 1, kPipeTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ++token;
    }
    compute(rank, round, 0);
    if (rank < size - 1)
      MPI_Send(&token, 1, MPI_INT, rank + 1, kPipeTag, MPI_COMM_WORLD);
    total += token;

    /* Waitall over a ring exchange. */
    compute(rank, round, 1);
    int out = rank * 100 + round, in = -1;
    MPI_Request requests[2];
    MPI_Irecv(&in, 1, MPI_INT, left_of(rank, size), kRingTag, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(&out, 1, MPI_INT, right_of(rank, size), kRingTag, MPI_COMM_WORLD, &requests[1]);
    MPI_Status statuses[2];
    MPI_Waitall(2, requests, statuses);
    total += in;

    /* Barrier after uneven compute. */
    compute(rank, round, 2);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Wildcard receives at rank 0. */
    if (rank == 0) {
      int sources[64], count = 0;
      for (int m = 1; m < size; ++m) {
        int value = -1;
        MPI_Status status;
        MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, kGatherTag, MPI_COMM_WORLD, &status);
        if (count < 64)
          sources[count++] = status.MPI_SOURCE;
        total += value;
      }
      for (int i = 1; i < count; ++i)
        for (int j = i; j > 0 && sources[j - 1] > sources[j]; --j) {
          const int t = sources[j];
          sources[j] = sources[j - 1];
          sources[j - 1] = t;
        }
      char label[32];
      snprintf(label, sizeof label, "round %d: sources", round);
      rank_log_ints(label, sources, count);
    } else {
      compute(rank, round, 3);
      const int value = rank * 1000 + round;
      MPI_Send(&value, 1, MPI_INT, 0, kGatherTag, MPI_COMM_WORLD);
    }
  }
  rank_log("total %ld", total);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
