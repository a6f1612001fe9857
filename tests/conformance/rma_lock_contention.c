/* rma_lock_contention [ITERATIONS] [contends|waits]: every rank (4 in the tests) contends for
 * rank 0's window, ITERATIONS times (default 100):
 *   - MPI_Win_lock(MPI_LOCK_EXCLUSIVE): MPI_Get of a shared counter, MPI_Win_flush, MPI_Put of
 *     the counter + 1 (a read-modify-write that only the exclusive lock makes safe);
 *   - MPI_Win_lock(MPI_LOCK_SHARED): MPI_Accumulate(MPI_SUM) of rank + 1 into a total, and an
 *     MPI_Put of the iteration into the rank's own slot;
 *   - every 10th iteration, under a shared lock, MPI_Get of the whole window (its values are
 *     timing-dependent and only checked for bounds).
 * With "contends" (the default) rank 0 does the same on its own window while it is the target
 * of everyone else; with "waits" it only waits for the others' reports, in MPI_Recv from rank 1,
 * MPI_Recv(MPI_ANY_SOURCE) and MPI_Irecv(MPI_ANY_SOURCE) + MPI_Wait, while they lock its window
 * (MPICH serves their requests from inside those calls). After an
 * MPI_Barrier, rank 0 reads its window and prints the counter (ranks x ITERATIONS), the total,
 * the slots, and how many reads were out of bounds (0).
 *
 * Expected outcome: status 0, the same output with and without vcmon. The monitor does not wrap
 * one-sided calls, but passive-target progress at rank 0 depends on rank 0 calling into MPI;
 * a monitor whose waits stopped driving MPI's progress (or that blocked in an unpolled call)
 * would hang here. */
#include "rank_log.h"

#include <string.h>

enum { kCounter, kTotal, kSlots };
enum { kDoneTag = 99 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 100;
  const char* target_mode = argc > 2 ? argv[2] : "contends";
  const int target_waits = strcmp(target_mode, "waits") == 0;
  const int length = kSlots + size;
  int* base = NULL;
  MPI_Win window;
  MPI_Win_allocate(rank == 0 ? (MPI_Aint)(sizeof(int) * (size_t)length) : 0, sizeof(int),
                   MPI_INFO_NULL, MPI_COMM_WORLD, &base, &window);
  if (rank == 0) {
    for (int i = 0; i < length; ++i)
      base[i] = 0;
  }
  MPI_Barrier(MPI_COMM_WORLD);

  int out_of_bounds = 0;
  int* snapshot = malloc(sizeof(int) * (size_t)length);
  if (rank == 0 && target_waits) {
    /* The target only waits for the origins to report, in blocking receives of each kind. */
    int done = 0, reports = 0;
    MPI_Recv(&done, 1, MPI_INT, 1, kDoneTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    reports += done;
    for (int r = 2; r < size; ++r) {
      if (r % 2 == 0) {
        MPI_Recv(&done, 1, MPI_INT, MPI_ANY_SOURCE, kDoneTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Request request;
        MPI_Irecv(&done, 1, MPI_INT, MPI_ANY_SOURCE, kDoneTag, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
      }
      reports += done;
    }
    rank_log("reports %d", reports);
  }
  for (int i = 0; i < iterations && !(rank == 0 && target_waits); ++i) {
    int counter = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, window);
    MPI_Get(&counter, 1, MPI_INT, 0, kCounter, 1, MPI_INT, window);
    MPI_Win_flush(0, window);
    ++counter;
    MPI_Put(&counter, 1, MPI_INT, 0, kCounter, 1, MPI_INT, window);
    MPI_Win_unlock(0, window);

    const int add = rank + 1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, window);
    MPI_Accumulate(&add, 1, MPI_INT, 0, kTotal, 1, MPI_INT, MPI_SUM, window);
    MPI_Put(&i, 1, MPI_INT, 0, kSlots + rank, 1, MPI_INT, window);
    MPI_Win_unlock(0, window);

    if (i % 10 == 9) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, window);
      MPI_Get(snapshot, length, MPI_INT, 0, 0, length, MPI_INT, window);
      MPI_Win_unlock(0, window);
      out_of_bounds += snapshot[kCounter] < 0 || snapshot[kCounter] > size * iterations ||
                       snapshot[kTotal] < 0 || snapshot[kSlots + rank] != i;
    }
  }
  free(snapshot);
  if (rank != 0 && target_waits) {
    const int done = 1;
    MPI_Send(&done, 1, MPI_INT, 0, kDoneTag, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, window);
    const int origins = target_waits ? size - 1 : size;
    rank_log("counter %d (expected %d), total %d (expected %d)", base[kCounter],
             origins * iterations, base[kTotal],
             iterations * (size * (size + 1) / 2 - (target_waits ? 1 : 0)));
    rank_log_ints("slots", base + kSlots, size);
    MPI_Win_unlock(0, window);
  }
  rank_log("reads out of bounds %d", out_of_bounds);
  MPI_Win_free(&window);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
