/* Probe then Get_count: messages of sizes the receiver does not know, probed by source with
 * MPI_ANY_TAG and by MPI_ANY_SOURCE with a fixed tag, sized with MPI_Get_count (also in a type
 * that does not divide the message, which gives MPI_UNDEFINED), then received. */
#include "rank_log.h"

enum { int_tag = 1, double_tag = 2 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (rank == 0) {
    MPI_Status status;
    for (int source = 1; source < size; ++source) {
      MPI_Probe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      int count, as_doubles, as_bytes;
      MPI_Get_count(&status, MPI_INT, &count);
      MPI_Get_count(&status, MPI_DOUBLE, &as_doubles);
      MPI_Get_count(&status, MPI_BYTE, &as_bytes);
      rank_log_status("probe by source", &status, MPI_INT);
      rank_log("probe by source: as doubles %d, as bytes %d", as_doubles, as_bytes);
      int* values = malloc(sizeof(int) * (size_t)count);
      MPI_Recv(values, count, MPI_INT, source, status.MPI_TAG, MPI_COMM_WORLD, &status);
      rank_log_status("receive", &status, MPI_INT);
      rank_log_ints("receive", values, count);
      free(values);
    }
    struct line_set arrivals = {0};
    for (int i = 1; i < size; ++i) {
      MPI_Probe(MPI_ANY_SOURCE, double_tag, MPI_COMM_WORLD, &status);
      int count, as_ints;
      MPI_Get_count(&status, MPI_DOUBLE, &count);
      MPI_Get_count(&status, MPI_INT, &as_ints);
      double* values = malloc(sizeof(double) * (size_t)count);
      MPI_Status received;
      MPI_Recv(values, count, MPI_DOUBLE, status.MPI_SOURCE, double_tag, MPI_COMM_WORLD, &received);
      double sum = 0;
      for (int k = 0; k < count; ++k)
        sum += values[k];
      char probed_text[96], received_text[96];
      line_set_add(&arrivals, "wildcard probe %s (as ints %d), received %s, sum %.3f",
                   status_text(&status, MPI_DOUBLE, probed_text), as_ints,
                   status_text(&received, MPI_DOUBLE, received_text), sum);
      free(values);
    }
    line_set_log_sorted(&arrivals);
  } else {
    const int int_count = rank + 2;
    int* ints = malloc(sizeof(int) * (size_t)int_count);
    for (int i = 0; i < int_count; ++i)
      ints[i] = rank * 10 + i;
    const int double_count = 3 * rank;
    double* doubles = malloc(sizeof(double) * (size_t)double_count);
    for (int i = 0; i < double_count; ++i)
      doubles[i] = rank + i / 8.0;
    MPI_Send(ints, int_count, MPI_INT, 0, int_tag, MPI_COMM_WORLD);
    MPI_Send(doubles, double_count, MPI_DOUBLE, 0, double_tag, MPI_COMM_WORLD);
    rank_log("sent %d ints and %d doubles", int_count, double_count);
    free(ints);
    free(doubles);
  }

  rank_log_print();
  MPI_Finalize();
  return 0;
}
