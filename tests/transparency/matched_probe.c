/* Matched probes: Mprobe then Mrecv, an Improbe polling loop then Imrecv, both with
 * MPI_ANY_SOURCE, and Mprobe of MPI_PROC_NULL (MPI_MESSAGE_NO_PROC). */
#include "rank_log.h"
#include <sched.h>

enum { blocking_tag = 3, polled_tag = 4 };

static void receive_matched(struct line_set* arrivals, const char* label, int nonblocking) {
  MPI_Message message;
  MPI_Status probed, received;
  if (nonblocking) {
    int flag = 0;
    while (!flag) {
      MPI_Improbe(MPI_ANY_SOURCE, polled_tag, MPI_COMM_WORLD, &flag, &message, &probed);
      if (!flag)
        sched_yield();
    }
  } else {
    MPI_Mprobe(MPI_ANY_SOURCE, blocking_tag, MPI_COMM_WORLD, &message, &probed);
  }
  int count;
  MPI_Get_count(&probed, MPI_INT, &count);
  int* values = malloc(sizeof(int) * (size_t)(count + 1));
  if (nonblocking) {
    MPI_Request request;
    MPI_Imrecv(values, count, MPI_INT, &message, &request);
    MPI_Wait(&request, &received);
  } else {
    MPI_Mrecv(values, count, MPI_INT, &message, &received);
  }
  int sum = 0;
  for (int i = 0; i < count; ++i)
    sum += values[i];
  char probed_text[96], received_text[96];
  line_set_add(arrivals, "%s probed %s, received %s, sum %d, message null %d", label,
               status_text(&probed, MPI_INT, probed_text),
               status_text(&received, MPI_INT, received_text), sum, message == MPI_MESSAGE_NULL);
  free(values);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (rank == 0) {
    struct line_set arrivals = {0};
    for (int i = 1; i < size; ++i)
      receive_matched(&arrivals, "Mprobe/Mrecv", 0);
    line_set_log_sorted(&arrivals);
    for (int i = 1; i < size; ++i)
      receive_matched(&arrivals, "Improbe/Imrecv", 1);
    line_set_log_sorted(&arrivals);
  } else {
    int values[8];
    for (int i = 0; i < 8; ++i)
      values[i] = rank * 10 + i;
    MPI_Send(values, rank, MPI_INT, 0, blocking_tag, MPI_COMM_WORLD);
    MPI_Send(values, rank + 1, MPI_INT, 0, polled_tag, MPI_COMM_WORLD);
    rank_log("sent %d and %d ints", rank, rank + 1);
  }

  MPI_Message message;
  MPI_Status status;
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &message, &status);
  rank_log("Mprobe PROC_NULL: message is NO_PROC %d", message == MPI_MESSAGE_NO_PROC);
  rank_log_status("Mprobe PROC_NULL", &status, MPI_INT);
  int untouched = -1;
  MPI_Mrecv(&untouched, 1, MPI_INT, &message, &status);
  rank_log_status("Mrecv NO_PROC", &status, MPI_INT);
  rank_log("Mrecv NO_PROC: buffer %d, message null %d", untouched, message == MPI_MESSAGE_NULL);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
