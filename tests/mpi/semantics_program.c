/* What the layer must leave exactly as MPI makes it, asserted in a monitored run with real
 * ranks (the transparency suite also compares whole outputs with the plain build):
 * MPI_ERRORS_RETURN with bad ranks and tags gives MPI's error classes and the program goes on;
 * MPI_ANY_SOURCE / MPI_ANY_TAG statuses and MPI_Get_count; MPI_PROC_NULL; MPI_STATUS_IGNORE. */
#include <mpi.h>
#include <stdio.h>

static int failures;
static void expect(int condition, const char* what, int rank) {
  if (!condition) {
    fprintf(stderr, "rank %d FAILED: %s\n", rank, what);
    ++failures;
  }
}

static int error_class(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int value = rank;
  MPI_Request request = MPI_REQUEST_NULL;

  expect(error_class(MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD)) == MPI_ERR_RANK,
         "Send to rank size: MPI_ERR_RANK", rank);
  expect(error_class(MPI_Isend(&value, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &request)) ==
             MPI_ERR_RANK,
         "Isend to rank -7: MPI_ERR_RANK", rank);
  expect(error_class(MPI_Ssend(&value, 1, MPI_INT, 0, -3, MPI_COMM_WORLD)) == MPI_ERR_TAG,
         "Ssend with tag -3: MPI_ERR_TAG", rank);
  expect(error_class(MPI_Recv(&value, 1, MPI_INT, size + 2, 0, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE)) == MPI_ERR_RANK,
         "Recv from rank size+2: MPI_ERR_RANK", rank);

  /* A Sendrecv whose receiving half is invalid sends nothing (and leaves no stamp behind). */
  if (rank == 1) {
    expect(error_class(MPI_Sendrecv(&value, 1, MPI_INT, 0, 30, &value, 1, MPI_INT, size + 5, 30,
                                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)) == MPI_ERR_RANK,
           "Sendrecv from rank size+5: MPI_ERR_RANK", rank);
  }

  /* MPI_PROC_NULL: immediate, with MPI's empty status. */
  MPI_Status status;
  expect(MPI_Recv(&value, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &status) == MPI_SUCCESS,
         "Recv from MPI_PROC_NULL succeeds", rank);
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  expect(status.MPI_SOURCE == MPI_PROC_NULL && status.MPI_TAG == MPI_ANY_TAG && count == 0,
         "MPI_PROC_NULL status", rank);
  expect(MPI_Send(&value, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD) == MPI_SUCCESS,
         "Send to MPI_PROC_NULL succeeds", rank);

  /* Every other rank sends rank + 1 ints with tag 100 + rank; rank 0 takes them in any order
   * with wildcards and checks each status against its content. */
  if (rank == 0) {
    int seen = 0;
    for (int i = 1; i < size; ++i) {
      int buffer[16] = {0};
      MPI_Recv(buffer, 16, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      MPI_Get_count(&status, MPI_INT, &count);
      const int source = buffer[0];
      expect(status.MPI_SOURCE == source && status.MPI_TAG == 100 + source && count == source + 1,
             "wildcard status: source, tag and count match the message", rank);
      seen |= 1 << source;
      /* A second message from each, with MPI_STATUS_IGNORE and a specific source. */
      MPI_Recv(buffer, 16, MPI_INT, source, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      expect(buffer[0] == -source, "second message content", rank);
    }
    expect(seen == (1 << size) - 2, "one message from every rank", rank);
  } else {
    int buffer[16];
    for (int i = 0; i <= rank; ++i) {
      buffer[i] = rank;
    }
    MPI_Send(buffer, rank + 1, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD);
    buffer[0] = -rank;
    MPI_Send(buffer, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
  }

  /* Truncation: the error class and a status naming the message, and the stamp protocol stays
   * aligned (the next message from the same source and tag is received correctly). On a
   * duplicate of MPI_COMM_WORLD, so that the wildcard receives above cannot take these. */
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rank == 1) {
    int many[4] = {1, 2, 3, 4};
    MPI_Send(many, 4, MPI_INT, 0, 9, dup);
    MPI_Send(many, 1, MPI_INT, 0, 9, dup);
  } else if (rank == 0) {
    int two[2];
    expect(error_class(MPI_Recv(two, 2, MPI_INT, 1, 9, dup, &status)) == MPI_ERR_TRUNCATE,
           "truncated Recv: MPI_ERR_TRUNCATE", rank);
    expect(status.MPI_SOURCE == 1 && status.MPI_TAG == 9, "truncated Recv status", rank);
    expect(MPI_Recv(two, 2, MPI_INT, 1, 9, dup, &status) == MPI_SUCCESS, "Recv after truncation",
           rank);
    MPI_Get_count(&status, MPI_INT, &count);
    expect(count == 1 && two[0] == 1, "Recv after truncation: count and content", rank);
  }
  MPI_Comm_free(&dup);
  MPI_Finalize();
  if (rank == 0 && failures == 0) {
    printf("semantics: all checks passed\n");
  }
  return failures != 0;
}
