/* Tag matching: receives by specific tag out of send order, MPI_ANY_TAG in send order
 * (messages from one sender do not overtake), wildcard source with a fixed tag, and the largest
 * legal tag, MPI_TAG_UB. */
#include "rank_log.h"

enum { first_tag = 5, second_tag = 3, third_tag = 7, gather_tag = 9 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int* tag_ub;
  int found;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
  rank_log("MPI_TAG_UB present=%d value=%d", found, found ? *tag_ub : -1);
  int max_tag = *tag_ub;

  MPI_Status status;
  if (rank == 0) {
    for (int source = 1; source < size; ++source) {
      int value;
      MPI_Recv(&value, 1, MPI_INT, source, third_tag, MPI_COMM_WORLD, &status);
      rank_log_status("specific tag", &status, MPI_INT);
      rank_log("value %d", value);
      for (int i = 0; i < 2; ++i) {
        MPI_Recv(&value, 1, MPI_INT, source, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        rank_log_status("any tag", &status, MPI_INT);
        rank_log("value %d", value);
      }
    }
    struct line_set arrivals = {0};
    for (int i = 1; i < size; ++i) {
      int value;
      MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, gather_tag, MPI_COMM_WORLD, &status);
      char text[96];
      line_set_add(&arrivals, "any source: %s value %d", status_text(&status, MPI_INT, text),
                   value);
    }
    line_set_log_sorted(&arrivals);
    for (int i = 1; i < size; ++i) {
      double values[2];
      MPI_Recv(values, 2, MPI_DOUBLE, i, max_tag, MPI_COMM_WORLD, &status);
      rank_log("tag_ub message: source=%d tag_is_ub=%d values %.1f %.1f", status.MPI_SOURCE,
               status.MPI_TAG == max_tag, values[0], values[1]);
    }
  } else {
    const int tags[] = {first_tag, second_tag, third_tag};
    MPI_Request requests[3];
    int values[3];
    for (int i = 0; i < 3; ++i) {
      values[i] = rank * 100 + tags[i];
      MPI_Isend(&values[i], 1, MPI_INT, 0, tags[i], MPI_COMM_WORLD, &requests[i]);
    }
    MPI_Status statuses[3];
    MPI_Waitall(3, requests, statuses);
    int gathered = rank * 1000;
    MPI_Send(&gathered, 1, MPI_INT, 0, gather_tag, MPI_COMM_WORLD);
    double ub_values[2] = {rank + 0.5, -rank - 0.25};
    MPI_Send(ub_values, 2, MPI_DOUBLE, 0, max_tag, MPI_COMM_WORLD);
    rank_log("sent tags %d %d %d, %d and MPI_TAG_UB", first_tag, second_tag, third_tag, gather_tag);
  }

  rank_log_print();
  MPI_Finalize();
  return 0;
}
