/* split_after_check [ROUNDS]: the last rank sleeps 1.5 s before each collective that makes a
 * communicator, while every other rank already waits in it, long enough for the monitor's
 * deadlock check (after 1 s by default) to start asking the ranks where they are:
 *   - ROUNDS times (default 3) MPI_Comm_split of MPI_COMM_WORLD (colour rank % 2, key -rank),
 *     then an MPI_Allreduce on the new communicator, which is freed;
 *   - MPI_Intercomm_create between the even and the odd ranks (leaders: their lowest ranks),
 *     an MPI_Allreduce across it, then, after another such wait, MPI_Intercomm_merge (the odd
 *     group high) and an MPI_Allreduce over the merged communicator.
 * Runs with 4 and 8 ranks. Every rank prints its ranks and sizes in the new communicators and
 * the sums.
 *
 * Expected outcome: status 0 after about 1.5 s x (ROUNDS + 2), the same output with and without
 * vcmon. The late rank enters the constructor after the check began; once inside PMPI it cannot
 * answer, and the monitor of 6c1d9d6's parent waited for its answer without a deadline, inside
 * the very call the late rank needed it to leave: the job hung. */
#include "rank_log.h"
#include "sleep_ms.h"

enum { kLateMs = 1500, kLeaderTag = 21 };

/* The last rank of MPI_COMM_WORLD arrives late. */
static void last_rank_late(int rank, int size) {
  if (rank == size - 1)
    sleep_ms(kLateMs);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 3;

  for (int round = 0; round < rounds; ++round) {
    last_rank_late(rank, size);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    int half_rank, half_size, sum = 0, contribution = rank + round;
    MPI_Comm_rank(half, &half_rank);
    MPI_Comm_size(half, &half_size);
    MPI_Allreduce(&contribution, &sum, 1, MPI_INT, MPI_SUM, half);
    rank_log("round %d: split colour %d: rank %d of %d, sum %d", round, rank % 2, half_rank,
             half_size, sum);
    MPI_Comm_free(&half);
  }

  /* Two groups, even and odd ranks, joined by an intercommunicator, then merged. */
  MPI_Comm group;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &group);
  last_rank_late(rank, size);
  MPI_Comm inter;
  MPI_Intercomm_create(group, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, kLeaderTag, &inter);
  int remote_size, across = 0;
  MPI_Comm_remote_size(inter, &remote_size);
  const int mine = 100 + rank;
  MPI_Allreduce(&mine, &across, 1, MPI_INT, MPI_SUM, inter);
  rank_log("intercommunicator: remote size %d, sum of the other group %d", remote_size, across);

  last_rank_late(rank, size);
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, rank % 2, &merged);
  int merged_rank, merged_size, total = 0;
  MPI_Comm_rank(merged, &merged_rank);
  MPI_Comm_size(merged, &merged_size);
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, merged);
  rank_log("merged: rank %d of %d, sum %d", merged_rank, merged_size, total);

  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&group);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
