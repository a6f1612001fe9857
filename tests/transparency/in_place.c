/* Collectives with MPI_IN_PLACE: Allreduce, Reduce and Gather at the root, Allgather, Scatter at
 * the root, Alltoall, Reduce_scatter_block and Scan. */
#include "rank_log.h"

enum { per_rank = 3 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int root = size - 1;
  const int total = per_rank * size;
  int* values = malloc(sizeof(int) * (size_t)total);
  int own[per_rank];

  for (int i = 0; i < per_rank; ++i)
    values[i] = rank * 10 + i;
  MPI_Allreduce(MPI_IN_PLACE, values, per_rank, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  rank_log_ints("Allreduce", values, per_rank);

  for (int i = 0; i < per_rank; ++i)
    own[i] = values[i] = rank * 10 + i;
  if (rank == root) {
    MPI_Reduce(MPI_IN_PLACE, values, per_rank, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
    rank_log_ints("Reduce at root", values, per_rank);
  } else {
    MPI_Reduce(own, NULL, per_rank, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
  }

  for (int i = 0; i < total; ++i)
    values[i] = -1;
  for (int i = 0; i < per_rank; ++i)
    values[rank * per_rank + i] = own[i] = rank * 100 + i;
  if (rank == root) {
    MPI_Gather(MPI_IN_PLACE, per_rank, MPI_INT, values, per_rank, MPI_INT, root, MPI_COMM_WORLD);
    rank_log_ints("Gather at root", values, total);
  } else {
    MPI_Gather(own, per_rank, MPI_INT, NULL, 0, MPI_INT, root, MPI_COMM_WORLD);
  }

  for (int i = 0; i < total; ++i)
    values[i] = i / per_rank == rank ? rank * 7 + i : -1;
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, values, per_rank, MPI_INT, MPI_COMM_WORLD);
  rank_log_ints("Allgather", values, total);

  for (int i = 0; i < total; ++i)
    values[i] = rank == root ? 5000 + i : -1;
  if (rank == root) {
    MPI_Scatter(values, per_rank, MPI_INT, MPI_IN_PLACE, per_rank, MPI_INT, root, MPI_COMM_WORLD);
    rank_log_ints("Scatter at root keeps", values, total);
  } else {
    MPI_Scatter(NULL, 0, MPI_INT, own, per_rank, MPI_INT, root, MPI_COMM_WORLD);
    rank_log_ints("Scatter", own, per_rank);
  }

  for (int i = 0; i < total; ++i)
    values[i] = rank * 1000 + i;
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, values, per_rank, MPI_INT, MPI_COMM_WORLD);
  rank_log_ints("Alltoall", values, total);

  for (int i = 0; i < total; ++i)
    values[i] = rank + i;
  MPI_Reduce_scatter_block(MPI_IN_PLACE, values, per_rank, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  rank_log_ints("Reduce_scatter_block", values, per_rank);

  for (int i = 0; i < per_rank; ++i)
    values[i] = rank + i + 1;
  MPI_Scan(MPI_IN_PLACE, values, per_rank, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  rank_log_ints("Scan", values, per_rank);

  free(values);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
