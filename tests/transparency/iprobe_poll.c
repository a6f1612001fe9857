/* Iprobe polling: an Iprobe for a message nobody has sent yet answers no (a barrier orders it
 * before the send); rank 0 polls MPI_ANY_SOURCE/MPI_ANY_TAG with Iprobe, receiving each message it
 * sees, until it has one from every other rank, which send after different amounts of work. */
#include "rank_log.h"
#include <sched.h>

enum { late_tag = 77 };

/* Work of a length that depends on the rank, so that messages arrive at different times. */
static double busy_work(int rank) {
  double x = 1.0;
  for (long i = 0; i < 200000L * (rank + 1); ++i)
    x = x * 1.0000001 + 1e-9;
  return x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int flag;
  MPI_Status status;

  if (rank == 1) {
    MPI_Iprobe(0, late_tag, MPI_COMM_WORLD, &flag, &status);
    rank_log("Iprobe before the send: flag %d", flag);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int value = 4242;
    MPI_Send(&value, 1, MPI_INT, 1, late_tag, MPI_COMM_WORLD);
  } else if (rank == 1) {
    do {
      MPI_Iprobe(0, late_tag, MPI_COMM_WORLD, &flag, &status);
      if (!flag)
        sched_yield();
    } while (!flag);
    rank_log_status("Iprobe after the send", &status, MPI_INT);
    int value;
    MPI_Recv(&value, 1, MPI_INT, 0, late_tag, MPI_COMM_WORLD, &status);
    rank_log("received %d", value);
  }

  if (rank == 0) {
    struct line_set arrivals = {0};
    for (int seen = 0; seen < size - 1;) {
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
      if (!flag) {
        sched_yield();
        continue;
      }
      int count;
      MPI_Get_count(&status, MPI_DOUBLE, &count);
      double values[4];
      MPI_Status received;
      MPI_Recv(values, count, MPI_DOUBLE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
               &received);
      char probed_text[96], received_text[96];
      line_set_add(&arrivals, "polled %s, received %s, first value %.1f",
                   status_text(&status, MPI_DOUBLE, probed_text),
                   status_text(&received, MPI_DOUBLE, received_text), values[0]);
      ++seen;
    }
    line_set_log_sorted(&arrivals);
  } else {
    double values[4] = {rank, busy_work(rank) > 0, 0, 0};
    MPI_Send(values, 1 + rank % 4, MPI_DOUBLE, 0, 10 + rank, MPI_COMM_WORLD);
  }

  rank_log_print();
  MPI_Finalize();
  return 0;
}
