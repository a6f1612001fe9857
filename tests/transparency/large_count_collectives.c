/* MPI-4 large-count collectives (`_c`: MPI_Count counts, MPI_Aint displacements) in all three
 * forms. Odd ranks call the `_c` form and even ranks the int form of the same blocking
 * collective, which MPI matches as one; then nonblocking (`I..._c`) and persistent (`..._init_c`)
 * forms on every rank. Each rank logs a checksum of what it received.
 *
 * Before 2026-12-01 the layer did not wrap the `_c` collectives: their waiting was counted as the
 * program's time, and a rank inside one answered nothing, so a wildcard decision elsewhere that
 * had to rule it out hung across nodes (conformance.unwrapped_collective.allreduce_c). The
 * layer's entry reduction names the collective each member calls: the two forms must count as
 * one there, or this correct program is reported as a mismatch. */
#include "rank_log.h"

#include <inttypes.h>

enum { kPer = 2 }; /* values per peer */

static void fill(int* values, int count, int base) {
  for (int i = 0; i < count; ++i)
    values[i] = base + i;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int large = rank % 2;
  const int n = kPer * size;
  int* send = malloc(sizeof(int) * (size_t)n);
  int* recv = malloc(sizeof(int) * (size_t)n);
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  MPI_Count* counts_c = malloc(sizeof(MPI_Count) * (size_t)size);
  MPI_Aint* displs_c = malloc(sizeof(MPI_Aint) * (size_t)size);
  MPI_Aint* bytes_displs = malloc(sizeof(MPI_Aint) * (size_t)size);
  int* bytes_displs_int = malloc(sizeof(int) * (size_t)size);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * (size_t)size);
  for (int r = 0; r < size; ++r) {
    counts[r] = kPer;
    displs[r] = kPer * r;
    counts_c[r] = kPer;
    displs_c[r] = kPer * r;
    bytes_displs[r] = (MPI_Aint)(sizeof(int) * kPer * (size_t)r);
    bytes_displs_int[r] = (int)bytes_displs[r];
    types[r] = MPI_INT;
  }
  const int root = size - 1;

#define BOTH(with_large, with_int)                                                                 \
  do {                                                                                             \
    fill(send, n, 100 * rank);                                                                     \
    fill(recv, n, -1);                                                                             \
    if (large)                                                                                     \
      with_large;                                                                                  \
    else                                                                                           \
      with_int;                                                                                    \
  } while (0)
#define LOG(name) rank_log("%s %016" PRIx64, name, checksum(recv, sizeof(int) * (size_t)n))

  BOTH(MPI_Bcast_c(send, n, MPI_INT, root, MPI_COMM_WORLD),
       MPI_Bcast(send, n, MPI_INT, root, MPI_COMM_WORLD));
  rank_log("bcast %016" PRIx64, checksum(send, sizeof(int) * (size_t)n));
  BOTH(MPI_Gather_c(send, kPer, MPI_INT, recv, kPer, MPI_INT, root, MPI_COMM_WORLD),
       MPI_Gather(send, kPer, MPI_INT, recv, kPer, MPI_INT, root, MPI_COMM_WORLD));
  LOG("gather");
  BOTH(MPI_Gatherv_c(send, kPer, MPI_INT, recv, counts_c, displs_c, MPI_INT, 0, MPI_COMM_WORLD),
       MPI_Gatherv(send, kPer, MPI_INT, recv, counts, displs, MPI_INT, 0, MPI_COMM_WORLD));
  LOG("gatherv");
  BOTH(MPI_Scatter_c(send, kPer, MPI_INT, recv, kPer, MPI_INT, root, MPI_COMM_WORLD),
       MPI_Scatter(send, kPer, MPI_INT, recv, kPer, MPI_INT, root, MPI_COMM_WORLD));
  LOG("scatter");
  BOTH(MPI_Scatterv_c(send, counts_c, displs_c, MPI_INT, recv, kPer, MPI_INT, 0, MPI_COMM_WORLD),
       MPI_Scatterv(send, counts, displs, MPI_INT, recv, kPer, MPI_INT, 0, MPI_COMM_WORLD));
  LOG("scatterv");
  BOTH(MPI_Allgather_c(send, kPer, MPI_INT, recv, kPer, MPI_INT, MPI_COMM_WORLD),
       MPI_Allgather(send, kPer, MPI_INT, recv, kPer, MPI_INT, MPI_COMM_WORLD));
  LOG("allgather");
  BOTH(MPI_Allgatherv_c(send, kPer, MPI_INT, recv, counts_c, displs_c, MPI_INT, MPI_COMM_WORLD),
       MPI_Allgatherv(send, kPer, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD));
  LOG("allgatherv");
  BOTH(MPI_Alltoall_c(send, kPer, MPI_INT, recv, kPer, MPI_INT, MPI_COMM_WORLD),
       MPI_Alltoall(send, kPer, MPI_INT, recv, kPer, MPI_INT, MPI_COMM_WORLD));
  LOG("alltoall");
  BOTH(MPI_Alltoallv_c(send, counts_c, displs_c, MPI_INT, recv, counts_c, displs_c, MPI_INT,
                       MPI_COMM_WORLD),
       MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD));
  LOG("alltoallv");
  BOTH(MPI_Alltoallw_c(send, counts_c, bytes_displs, types, recv, counts_c, bytes_displs, types,
                       MPI_COMM_WORLD),
       MPI_Alltoallw(send, counts, bytes_displs_int, types, recv, counts, bytes_displs_int, types,
                     MPI_COMM_WORLD));
  LOG("alltoallw");
  BOTH(MPI_Reduce_c(send, recv, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD),
       MPI_Reduce(send, recv, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
  LOG("reduce");
  BOTH(MPI_Allreduce_c(send, recv, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD),
       MPI_Allreduce(send, recv, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  LOG("allreduce");
  BOTH(MPI_Reduce_scatter_c(send, recv, counts_c, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  LOG("reduce_scatter");
  BOTH(MPI_Reduce_scatter_block_c(send, recv, kPer, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Reduce_scatter_block(send, recv, kPer, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  LOG("reduce_scatter_block");
  BOTH(MPI_Scan_c(send, recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Scan(send, recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  LOG("scan");
  BOTH(MPI_Exscan_c(send, recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Exscan(send, recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  if (rank == 0)
    fill(recv, n, -1); /* undefined on rank 0 */
  LOG("exscan");

  /* Neighbourhood collectives on a ring: two neighbours each. */
  MPI_Comm ring;
  const int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  BOTH(MPI_Neighbor_allgather_c(send, kPer, MPI_INT, recv, kPer, MPI_INT, ring),
       MPI_Neighbor_allgather(send, kPer, MPI_INT, recv, kPer, MPI_INT, ring));
  LOG("neighbor_allgather");
  BOTH(MPI_Neighbor_allgatherv_c(send, kPer, MPI_INT, recv, counts_c, displs_c, MPI_INT, ring),
       MPI_Neighbor_allgatherv(send, kPer, MPI_INT, recv, counts, displs, MPI_INT, ring));
  LOG("neighbor_allgatherv");
  BOTH(MPI_Neighbor_alltoall_c(send, kPer, MPI_INT, recv, kPer, MPI_INT, ring),
       MPI_Neighbor_alltoall(send, kPer, MPI_INT, recv, kPer, MPI_INT, ring));
  LOG("neighbor_alltoall");
  BOTH(MPI_Neighbor_alltoallv_c(send, counts_c, displs_c, MPI_INT, recv, counts_c, displs_c,
                                MPI_INT, ring),
       MPI_Neighbor_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, ring));
  LOG("neighbor_alltoallv");
  BOTH(MPI_Neighbor_alltoallw_c(send, counts_c, bytes_displs, types, recv, counts_c, bytes_displs,
                                types, ring),
       MPI_Neighbor_alltoallw(send, counts, bytes_displs, types, recv, counts, bytes_displs, types,
                              ring));
  LOG("neighbor_alltoallw");

  /* Nonblocking and persistent large-count forms, on every rank. */
  MPI_Request requests[2];
  MPI_Status statuses[2];
  int* other = malloc(sizeof(int) * (size_t)n);
  fill(send, n, 100 * rank);
  MPI_Iallreduce_c(send, recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[0]);
  MPI_Ialltoallv_c(send, counts_c, displs_c, MPI_INT, other, counts_c, displs_c, MPI_INT,
                   MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, statuses);
  LOG("iallreduce_c");
  rank_log("ialltoallv_c %016" PRIx64, checksum(other, sizeof(int) * (size_t)n));
  MPI_Request persistent;
  MPI_Allreduce_init_c(send, recv, n, MPI_INT, MPI_MIN, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent);
  for (int round = 0; round < 2; ++round) {
    fill(send, n, 100 * rank + round);
    MPI_Start(&persistent);
    MPI_Wait(&persistent, MPI_STATUS_IGNORE);
    LOG("allreduce_init_c");
  }
  MPI_Request_free(&persistent);

  MPI_Comm_free(&ring);
  rank_log_print();
  free(other);
  free(types);
  free(bytes_displs_int);
  free(bytes_displs);
  free(displs_c);
  free(counts_c);
  free(displs);
  free(counts);
  free(recv);
  free(send);
  MPI_Finalize();
  return 0;
}
