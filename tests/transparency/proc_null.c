/* MPI_PROC_NULL as partner: every operation completes at once, receives leave the buffer alone
 * and return source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. Also a non-periodic shift whose end
 * ranks have MPI_PROC_NULL neighbours. */
#include "rank_log.h"

enum { length = 4 };

static void fill(int* buffer, int value) {
  for (int i = 0; i < length; ++i)
    buffer[i] = value + i;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int buffer[length], other[length];
  MPI_Status status;
  MPI_Request request;

  fill(buffer, 10);
  MPI_Send(buffer, length, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
  MPI_Ssend(buffer, length, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
  MPI_Recv(buffer, length, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &status);
  rank_log_status("Recv", &status, MPI_INT);
  rank_log_checksum("Recv buffer", buffer, sizeof buffer);

  MPI_Irecv(buffer, length, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, &status);
  rank_log_status("Irecv+Wait", &status, MPI_INT);
  rank_log("request null after Wait=%d", request == MPI_REQUEST_NULL);

  int flag;
  MPI_Isend(buffer, length, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &request);
  MPI_Test(&request, &flag, &status);
  rank_log("Isend+Test: flag=%d", flag);

  MPI_Probe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &status);
  rank_log_status("Probe", &status, MPI_INT);
  MPI_Iprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &flag, &status);
  rank_log("Iprobe: flag=%d", flag);
  rank_log_status("Iprobe", &status, MPI_INT);

  fill(other, 20);
  MPI_Sendrecv(buffer, length, MPI_INT, MPI_PROC_NULL, 4, other, length, MPI_INT, MPI_PROC_NULL, 4,
               MPI_COMM_WORLD, &status);
  rank_log_status("Sendrecv", &status, MPI_INT);
  rank_log_checksum("Sendrecv buffer", other, sizeof other);
  MPI_Sendrecv_replace(other, length, MPI_INT, MPI_PROC_NULL, 5, MPI_PROC_NULL, 5, MPI_COMM_WORLD,
                       &status);
  rank_log_status("Sendrecv_replace", &status, MPI_INT);
  rank_log_checksum("Sendrecv_replace buffer", other, sizeof other);

  MPI_Recv_init(other, length, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &request);
  MPI_Start(&request);
  MPI_Wait(&request, &status);
  rank_log_status("persistent Recv_init+Start+Wait", &status, MPI_INT);
  MPI_Request_free(&request);

  /* A shift towards higher ranks without wrap-around. */
  int lower = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int higher = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  fill(buffer, 100 * rank);
  fill(other, -1);
  MPI_Sendrecv(buffer, length, MPI_INT, higher, 7, other, length, MPI_INT, lower, 7, MPI_COMM_WORLD,
               &status);
  rank_log_status("shift", &status, MPI_INT);
  rank_log("shift received %d %d %d %d", other[0], other[1], other[2], other[3]);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
