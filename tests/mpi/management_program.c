/* Every MPI call is a record (docs/runtime.md, "Accounting"), also those that move no message of a
 * partner's: rank 0 makes 3 duplicates and a split of MPI_COMM_WORLD, posts a receive and tests it
 * once before its sender (asleep 100 ms) sends, waits for it, starts a persistent receive 3 times,
 * frees it, cancels a receive nothing matches and waits for it, and frees the 4 communicators. Its
 * profile must hold each call with its count: the layer's wait for a message at MPI_Wait (per
 * partner), the others with no partner. Rank 1 does the matching half. Both ranks also make, use
 * and free a datatype, a group, an attribute and a reduction operation: those calls are records
 * too. */
#include "sleep_ms.h"
#include <mpi.h>
#include <stdio.h>

enum { kDuplicates = 3, kStarts = 3 };

static void maximum(void* in, void* inout, int* count, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *count; ++i) {
    if (((int*)in)[i] > ((int*)inout)[i]) {
      ((int*)inout)[i] = ((int*)in)[i];
    }
  }
}

/* A vector type, a group of rank 0 alone, an attribute on MPI_COMM_WORLD and a user reduction
 * (used once, so that each object is really used): 0 on success. */
static int local_objects(int rank) {
  MPI_Datatype pair;
  MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Type_free(&pair);
  MPI_Group world, first;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int ranks[] = {0};
  MPI_Group_incl(world, 1, ranks, &first);
  MPI_Group_free(&first);
  MPI_Group_free(&world);
  int keyval;
  static int attribute = 7;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &attribute);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
  MPI_Comm_free_keyval(&keyval);
  MPI_Op op;
  MPI_Op_create(maximum, 1, &op);
  int largest = 0;
  MPI_Allreduce(&rank, &largest, 1, MPI_INT, op, MPI_COMM_WORLD);
  MPI_Op_free(&op);
  return largest == 1 ? 0 : 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm comms[kDuplicates + 1];
  for (int i = 0; i < kDuplicates; ++i) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
  }
  MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comms[kDuplicates]);
  int value = rank;
  if (rank == 0) {
    MPI_Request request;
    int done = 0;
    MPI_Irecv(&value, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &request);
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) {
      fprintf(stderr, "rank 0: the message came before its sender woke up\n");
      return 1;
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Recv_init(&value, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &request);
    for (int i = 0; i < kStarts; ++i) {
      MPI_Start(&request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&request);
    MPI_Irecv(&value, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    sleep_ms(100);
    MPI_Send(&value, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    for (int i = 0; i < kStarts; ++i) {
      MPI_Send(&value, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    }
  }
  for (int i = 0; i <= kDuplicates; ++i) {
    MPI_Comm_free(&comms[i]);
  }
  const int wrong = local_objects(rank);
  MPI_Finalize();
  return wrong;
}
