/* shared_memory_spin MODE: MPI-3 shared memory beside a wildcard event. Rank 0 allocates a
 * flag in a shared window (MPI_Win_allocate_shared over the node); in each of 3 rounds every
 * rank from 2 up sends rank 0 a message, while rank 1 spins on the flag with atomics and
 * sched_yield, calling no MPI, until rank 0 has taken those messages; then rank 1 sends its
 * own, which rank 0 takes from rank 1 by name. MODE says how rank 0 takes the first ones:
 *   recv     MPI_Recv(MPI_ANY_SOURCE)
 *   probe    MPI_Probe(MPI_ANY_SOURCE), then MPI_Recv from the source it found
 *   waitany  MPI_Irecv from every rank (rank 1's included), then MPI_Waitany until all but
 *            rank 1's have completed (the layer orders Waitany over such receives in virtual
 *            time); rank 1's completes after the release.
 * Needs every rank on one node (the window is over MPI_COMM_TYPE_SHARED) and 3 ranks or more.
 *
 * Expected outcome: status 0, the same output with and without vcmon, every run. Before: every
 * run hung. Rank 0's decision waited for rank 1 to say it would not send earlier, and rank 1,
 * calling no MPI, never answered, while it waited for rank 0. */
#include "rank_log.h"

#include <sched.h>
#include <stdatomic.h>
#include <string.h>

enum { kRounds = 3, kFirstTag = 5, kReleasedTag = 6 };

/* Rank 0 takes the messages of ranks 2.. in MODE's way; logs them in source order (their
 * arrival order is MPI's to choose). In waitany mode `released` is left posted for rank 1. */
static void take_first_messages(const char* mode, int size, int round, MPI_Request* released,
                                int* released_value) {
  int from[64] = {0};
  if (strcmp(mode, "waitany") == 0) {
    int in[64];
    MPI_Request requests[64];
    MPI_Irecv(released_value, 1, MPI_INT, 1, kReleasedTag, MPI_COMM_WORLD, &requests[0]);
    for (int source = 2; source < size; ++source)
      MPI_Irecv(&in[source], 1, MPI_INT, source, kFirstTag, MPI_COMM_WORLD, &requests[source - 1]);
    for (int taken = 2; taken < size; ++taken) {
      int index;
      MPI_Status status;
      MPI_Waitany(size - 1, requests, &index, &status);
      if (index == 0)
        rank_log("round %d: Waitany completed rank 1's receive before its release", round);
      else
        from[status.MPI_SOURCE] = in[index + 1];
    }
    *released = requests[0];
  } else {
    for (int taken = 2; taken < size; ++taken) {
      int value = -1;
      MPI_Status status;
      if (strcmp(mode, "probe") == 0) {
        MPI_Probe(MPI_ANY_SOURCE, kFirstTag, MPI_COMM_WORLD, &status);
        MPI_Recv(&value, 1, MPI_INT, status.MPI_SOURCE, kFirstTag, MPI_COMM_WORLD, &status);
      } else {
        MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, kFirstTag, MPI_COMM_WORLD, &status);
      }
      from[status.MPI_SOURCE] = value;
    }
    MPI_Irecv(released_value, 1, MPI_INT, 1, kReleasedTag, MPI_COMM_WORLD, released);
  }
  for (int source = 2; source < size; ++source)
    rank_log("round %d: took %d from %d", round, from[source], source);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = require_ranks(3);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "recv";
  if (size > 64) {
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size;
  MPI_Comm_size(node, &node_size);
  if (node_size != size) {
    fprintf(stderr, "shared_memory_spin: every rank must be on one node\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  atomic_int* flag = NULL;
  MPI_Win window;
  MPI_Win_allocate_shared(rank == 0 ? (MPI_Aint)sizeof(atomic_int) : 0, sizeof(atomic_int),
                          MPI_INFO_NULL, node, &flag, &window);
  MPI_Aint bytes;
  int unit;
  MPI_Win_shared_query(window, 0, &bytes, &unit, &flag);
  if (rank == 0)
    atomic_init(flag, 0);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, window);
  MPI_Barrier(MPI_COMM_WORLD);

  for (int round = 0; round < kRounds; ++round) {
    if (rank == 0) {
      MPI_Request released;
      int value = -1;
      take_first_messages(mode, size, round, &released, &value);
      atomic_store(flag, round + 1);
      MPI_Status status;
      MPI_Wait(&released, &status);
      rank_log("round %d: then %d from %d", round, value, status.MPI_SOURCE);
    } else if (rank == 1) {
      long spins = 0;
      while (atomic_load(flag) != round + 1) {
        ++spins;
        sched_yield();
      }
      const int value = 1000 + round;
      MPI_Send(&value, 1, MPI_INT, 0, kReleasedTag, MPI_COMM_WORLD);
      rank_log("round %d: released, sent %d", round, value);
    } else {
      const int value = 100 * rank + round;
      MPI_Send(&value, 1, MPI_INT, 0, kFirstTag, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Win_unlock_all(window);
  MPI_Win_free(&window);
  MPI_Comm_free(&node);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
