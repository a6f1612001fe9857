/* Communicators: Comm_split with reversed keys and with MPI_UNDEFINED, Comm_dup keeping traffic
 * apart from its parent (same source and tag on both), Comm_create from a group, Comm_compare,
 * collectives on the new communicators, and Comm_free. */
#include "rank_log.h"

static const char* comparison_name(int result) {
  switch (result) {
  case MPI_IDENT:
    return "IDENT";
  case MPI_CONGRUENT:
    return "CONGRUENT";
  case MPI_SIMILAR:
    return "SIMILAR";
  case MPI_UNEQUAL:
    return "UNEQUAL";
  default:
    return "?";
  }
}

static void log_comparison(const char* label, MPI_Comm a, MPI_Comm b) {
  int result;
  MPI_Comm_compare(a, b, &result);
  rank_log("compare %s: %s", label, comparison_name(result));
}

static void log_membership(const char* label, MPI_Comm comm) {
  int rank, size, world_rank, world_sum;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Allreduce(&world_rank, &world_sum, 1, MPI_INT, MPI_SUM, comm);
  int root_world_rank = world_rank;
  MPI_Bcast(&root_world_rank, 1, MPI_INT, 0, comm);
  rank_log("%s: rank %d of %d, sum of world ranks %d, rank 0 is world rank %d", label, rank, size,
           world_sum, root_world_rank);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Comm halves;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &halves);
  log_membership("split by parity, reversed", halves);
  log_comparison("world vs split", MPI_COMM_WORLD, halves);

  MPI_Comm without_zero;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &without_zero);
  rank_log("split with MPI_UNDEFINED: null=%d", without_zero == MPI_COMM_NULL);
  if (without_zero != MPI_COMM_NULL) {
    log_membership("split without rank 0", without_zero);
    MPI_Comm_free(&without_zero);
  }

  MPI_Comm duplicate;
  MPI_Comm_dup(MPI_COMM_WORLD, &duplicate);
  log_comparison("world vs dup", MPI_COMM_WORLD, duplicate);
  log_comparison("dup vs itself", duplicate, duplicate);
  /* Rank 1 sends on the duplicate first, rank 0 receives on the world first: the tags and
   * partners are the same, only the communicator tells the messages apart. */
  if (rank == 1) {
    int on_dup = 111, on_world = 222;
    MPI_Request requests[2];
    MPI_Isend(&on_dup, 1, MPI_INT, 0, 0, duplicate, &requests[0]);
    MPI_Isend(&on_world, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &requests[1]);
    MPI_Status statuses[2];
    MPI_Waitall(2, requests, statuses);
  } else if (rank == 0) {
    int value;
    MPI_Status status;
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    rank_log_status("world receive", &status, MPI_INT);
    rank_log("world receive value %d", value);
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, duplicate, &status);
    rank_log_status("dup receive", &status, MPI_INT);
    rank_log("dup receive value %d", value);
  }
  MPI_Comm dup_of_split;
  MPI_Comm_dup(halves, &dup_of_split);
  log_membership("dup of split", dup_of_split);
  log_comparison("split vs its dup", halves, dup_of_split);

  MPI_Group world_group, even_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  const int even_count = (size + 1) / 2;
  int* evens = malloc(sizeof(int) * (size_t)even_count);
  for (int i = 0; i < even_count; ++i)
    evens[i] = 2 * i;
  MPI_Group_incl(world_group, even_count, evens, &even_group);
  MPI_Comm even;
  MPI_Comm_create(MPI_COMM_WORLD, even_group, &even);
  rank_log("create from even group: null=%d", even == MPI_COMM_NULL);
  if (even != MPI_COMM_NULL) {
    log_membership("even ranks", even);
    log_comparison("even vs split", even, halves);
    MPI_Comm_free(&even);
  }
  MPI_Group_free(&even_group);
  MPI_Group_free(&world_group);
  free(evens);

  MPI_Comm_free(&dup_of_split);
  MPI_Comm_free(&duplicate);
  MPI_Comm_free(&halves);
  rank_log("after Comm_free: null=%d %d %d", dup_of_split == MPI_COMM_NULL,
           duplicate == MPI_COMM_NULL, halves == MPI_COMM_NULL);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
