/* Buffered sends: Buffer_attach sized with Pack_size and MPI_BSEND_OVERHEAD, Bsend, Ibsend and a
 * persistent Bsend_init around the ring, receives in reverse tag order, and Buffer_detach
 * handing back the same buffer and size. */
#include "rank_log.h"

enum { length = 16, messages = 5 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = right_of(rank, size), left = left_of(rank, size);

  int packed;
  MPI_Pack_size(length, MPI_INT, MPI_COMM_WORLD, &packed);
  const int attached_size = messages * (packed + MPI_BSEND_OVERHEAD);
  void* attached = malloc((size_t)attached_size);
  MPI_Buffer_attach(attached, attached_size);

  int outgoing[messages][length];
  for (int m = 0; m < messages; ++m)
    for (int i = 0; i < length; ++i)
      outgoing[m][i] = rank * 1000 + m * 100 + i;
  for (int m = 0; m < 3; ++m)
    MPI_Bsend(outgoing[m], length, MPI_INT, right, m, MPI_COMM_WORLD);
  MPI_Request requests[2];
  MPI_Ibsend(outgoing[3], length, MPI_INT, right, 3, MPI_COMM_WORLD, &requests[0]);
  MPI_Bsend_init(outgoing[4], length, MPI_INT, right, 4, MPI_COMM_WORLD, &requests[1]);
  MPI_Start(&requests[1]);
  MPI_Status send_statuses[2];
  MPI_Waitall(2, requests, send_statuses);
  MPI_Request_free(&requests[1]);
  rank_log("%d buffered sends done", messages);

  for (int m = messages - 1; m >= 0; --m) {
    int incoming[length];
    MPI_Status status;
    MPI_Recv(incoming, length, MPI_INT, left, m, MPI_COMM_WORLD, &status);
    char label[32];
    snprintf(label, sizeof label, "tag %d", m);
    rank_log_status(label, &status, MPI_INT);
    rank_log_checksum(label, incoming, sizeof incoming);
  }

  void* detached;
  int detached_size;
  MPI_Buffer_detach(&detached, &detached_size);
  rank_log("detach returns the attached buffer: %d, size %s", detached == attached,
           detached_size == attached_size ? "equal" : "different");
  free(attached);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
