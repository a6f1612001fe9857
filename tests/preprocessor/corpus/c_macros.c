/* Macros that expand to loops and MPI calls, MPI calls inside macro arguments (the usual
 * error-checking wrapper), a function defined by a macro, and calls in unevaluated operands. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    int check_rc = (call);                                                                         \
    if (check_rc != MPI_SUCCESS) {                                                                 \
      fprintf(stderr, "MPI error %d\n", check_rc);                                                 \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)
#define REPEAT(n, body)                                                                            \
  for (int repeat_i = 0; repeat_i < (n); repeat_i++) {                                             \
    body;                                                                                          \
  }
#define SEND_TO(dest, value) MPI_Send(&(value), 1, MPI_INT, (dest), 0, MPI_COMM_WORLD)
#define RING_PASS(rank, size, value)                                                               \
  for (int step = 0; step < (size); step++) {                                                      \
    MPI_Sendrecv_replace(&(value), 1, MPI_INT, ((rank) + 1) % (size), 1,                           \
                         ((rank) + (size)-1) % (size), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);      \
  }
#define DEFINE_GETTER(name, value)                                                                 \
  static int name(void) {                                                                          \
    return (value);                                                                                \
  }
#define MAX(a, b) ((a) > (b) ? (a) : (b))

DEFINE_GETTER(answer, 42)

static int next(int x) {
  return x + 1;
}

int main(int argc, char** argv) {
  int rank, size;
  CHECK(MPI_Init(&argc, &argv));
  CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  int value = rank * 10;
  REPEAT(3, value = next(value));
  RING_PASS(rank, size, value);
  if (rank == 0) {
    int got;
    SEND_TO(1, value);
    CHECK(MPI_Recv(&got, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    printf("rank 0 got %d, max %d, answer %d, size %zu\n", got, MAX(next(got), value), answer(),
           sizeof(next(got)));
  } else if (rank == 1) {
    int got;
    CHECK(MPI_Recv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    got = next(got);
    SEND_TO(0, got);
  }
  CHECK(MPI_Barrier(MPI_COMM_WORLD));
  CHECK(MPI_Finalize());
  return 0;
}
