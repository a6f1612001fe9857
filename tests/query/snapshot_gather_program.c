/* vcmon_snapshot_gather at a root other than rank 0: rank r sends r + 1 messages to its right
 * neighbour and receives as many from its left one, then every rank gathers a snapshot at the
 * last rank. The root must hold one view per rank, in rank order, each with the calls that rank
 * made. Exit status 0 when all holds; each problem printed by the root. */
#include <mpi.h>
#include <stdio.h>
#include <vcmon/query.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int value = rank;
  for (int i = 0; i <= rank; ++i) {
    MPI_Send(&value, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
  }
  for (int i = 0; i <= left; ++i) {
    MPI_Recv(&value, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }

  const int root = size - 1;
  vcmon_snapshot* all = NULL;
  const int status = vcmon_snapshot_gather(root, &all);
  int problems = 0;
  if (status != VCMON_QUERY_OK) {
    printf("rank %d: vcmon_snapshot_gather returned %d\n", rank, status);
    ++problems;
  } else if (rank != root && all != NULL) {
    printf("rank %d: a snapshot on a rank that is not the root\n", rank);
    ++problems;
  } else if (rank == root) {
    if (all == NULL || vcmon_snapshot_rank_count(all) != size) {
      printf("root: %d rank views, not %d\n", all ? vcmon_snapshot_rank_count(all) : -1, size);
      ++problems;
    } else {
      for (int i = 0; i < size; ++i) {
        vcmon_totals totals;
        const unsigned long long expected = (unsigned long long)(i + 1 + (i + size - 1) % size + 1);
        if (vcmon_snapshot_rank(all, i) != i) {
          printf("view %d is rank %d\n", i, vcmon_snapshot_rank(all, i));
          ++problems;
        } else if (vcmon_snapshot_totals(all, i, &totals) != VCMON_QUERY_OK ||
                   totals.messages != expected) {
          printf("rank %d: %llu communication calls, not %llu\n", i,
                 (unsigned long long)totals.messages, expected);
          ++problems;
        }
      }
    }
    printf("gathered at rank %d: %d problems\n", root, problems);
  }
  vcmon_snapshot_free(all);
  MPI_Finalize();
  return problems == 0 ? 0 : 1;
}
