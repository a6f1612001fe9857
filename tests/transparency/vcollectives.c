/* Vector collectives with irregular counts (some zero) and displacements with gaps: Gatherv,
 * Scatterv, Allgatherv and Alltoallv. Roots other than rank 0 on purpose. */
#include "rank_log.h"

enum { gap = 2, unset = -7 };

/* Rank r contributes r + 1 values; displacements leave `gap` unused slots between blocks. */
static int layout(int size, int* counts, int* displacements) {
  int next = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = r + 1;
    displacements[r] = next;
    next += counts[r] + gap;
  }
  return next;
}

static int* filled(int count, int value) {
  int* values = malloc(sizeof(int) * (size_t)(count ? count : 1));
  for (int i = 0; i < count; ++i)
    values[i] = value;
  return values;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displacements = malloc(sizeof(int) * (size_t)size);
  const int extent = layout(size, counts, displacements);
  const int own_count = rank + 1;
  int* own = filled(own_count, 0);
  for (int i = 0; i < own_count; ++i)
    own[i] = rank * 10 + i;

  const int gather_root = 1;
  int* gathered = filled(extent, unset);
  MPI_Gatherv(own, own_count, MPI_INT, gathered, counts, displacements, MPI_INT, gather_root,
              MPI_COMM_WORLD);
  if (rank == gather_root)
    rank_log_ints("Gatherv", gathered, extent);

  const int scatter_root = size - 1;
  int* source = filled(extent, unset);
  for (int i = 0; i < extent; ++i)
    source[i] = 300 + i;
  int* scattered = filled(own_count + 1, unset); /* the last slot must stay unset */
  MPI_Scatterv(source, counts, displacements, MPI_INT, scattered, own_count, MPI_INT, scatter_root,
               MPI_COMM_WORLD);
  rank_log_ints("Scatterv", scattered, own_count + 1);

  int* everything = filled(extent, unset);
  MPI_Allgatherv(own, own_count, MPI_INT, everything, counts, displacements, MPI_INT,
                 MPI_COMM_WORLD);
  rank_log_ints("Allgatherv", everything, extent);

  /* Rank r sends (r + j) % 3 values to rank j, so some pairs exchange nothing. */
  int* send_counts = malloc(sizeof(int) * (size_t)size);
  int* send_displacements = malloc(sizeof(int) * (size_t)size);
  int* receive_counts = malloc(sizeof(int) * (size_t)size);
  int* receive_displacements = malloc(sizeof(int) * (size_t)size);
  int send_total = 0, receive_total = 0;
  for (int j = 0; j < size; ++j) {
    send_counts[j] = (rank + j) % 3;
    send_displacements[j] = send_total;
    send_total += send_counts[j] + 1;
    receive_counts[j] = (j + rank) % 3;
    receive_displacements[j] = receive_total;
    receive_total += receive_counts[j] + 1;
  }
  int* outgoing = filled(send_total, unset);
  for (int i = 0; i < send_total; ++i)
    outgoing[i] = rank * 100 + i;
  int* incoming = filled(receive_total, unset);
  MPI_Alltoallv(outgoing, send_counts, send_displacements, MPI_INT, incoming, receive_counts,
                receive_displacements, MPI_INT, MPI_COMM_WORLD);
  rank_log_ints("Alltoallv", incoming, receive_total);

  free(outgoing);
  free(incoming);
  free(send_counts);
  free(send_displacements);
  free(receive_counts);
  free(receive_displacements);
  free(everything);
  free(scattered);
  free(source);
  free(gathered);
  free(own);
  free(counts);
  free(displacements);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
