/* probe_any_blocked_send BYTES: ranks 0, 1 and 2 each call MPI_Probe(MPI_ANY_SOURCE) and then
 * receive the message they found, while rank 3, after 100 ms, sends BYTES bytes to rank 0,
 * then to rank 1, then to rank 2, each with a blocking MPI_Send. With MPICH over UCX a message
 * above a few KiB goes by rendezvous: the MPI_Send blocks inside MPI until its receive is
 * posted, so rank 3 spends most of its time in a call where a monitor cannot answer anyone.
 * Then ranks 0-2 pass a token around their ring, again received with MPI_Probe(MPI_ANY_SOURCE)
 * + MPI_Recv, and every rank prints source, tag, count and checksum of what it received.
 *
 * Expected outcome: status 0 within a second, the same output with and without vcmon. A wildcard
 * probe with a candidate asks the other possible senders where they are; the ones waiting in a
 * probe name rank 3, and the monitor of 6c1d9d6's parent then asked rank 3 too and waited for
 * its answer without end, while rank 3 waited inside MPI_Send for that very rank: the job hung
 * (tests: 1 KiB, eager, and 8 KiB and 16 KiB, rendezvous; the layer itself polls sends above
 * 16 KiB). */
#include "rank_log.h"
#include "sleep_ms.h"

enum { kSenderTag = 3, kRingTag = 4, kProbers = 3 };

/* MPI_Probe(MPI_ANY_SOURCE, tag), then the receive of what it found; logs and returns the
 * source. */
static int probe_and_receive(int tag, const char* label) {
  MPI_Status status;
  MPI_Probe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  char* buffer = malloc(count > 0 ? (size_t)count : 1);
  MPI_Status received;
  MPI_Recv(buffer, count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, &received);
  char text[96];
  rank_log("%s: probed source %d tag %d count %d, received %s", label, status.MPI_SOURCE,
           status.MPI_TAG, count, status_text(&received, MPI_BYTE, text));
  rank_log_checksum(label, buffer, (size_t)count);
  free(buffer);
  return status.MPI_SOURCE;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int bytes = argc > 1 ? atoi(argv[1]) : 8192;
  const int sender = argc > 2 ? atoi(argv[2]) : 0;
  if (size != kProbers + 1 || bytes < 1 || sender < 0 || sender >= size) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n 4 %s BYTES [SENDER]\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  rank_log("message of %d bytes from rank %d", bytes, sender);
  MPI_Barrier(MPI_COMM_WORLD);

  /* The probers in rank order, and this rank's place among them. */
  int probers[kProbers] = {0}, place = -1;
  for (int r = 0, i = 0; r < size; ++r) {
    if (r != sender) {
      if (r == rank)
        place = i;
      probers[i++] = r;
    }
  }
  if (rank == sender) {
    unsigned char* message = malloc((size_t)bytes);
    sleep_ms(100); /* the probers are waiting by now */
    for (int i = 0; i < kProbers; ++i) {
      for (int b = 0; b < bytes; ++b)
        message[b] = (unsigned char)(b * 7 + probers[i] * 13);
      MPI_Send(message, bytes, MPI_BYTE, probers[i], kSenderTag, MPI_COMM_WORLD);
      rank_log("sent %d bytes to %d", bytes, probers[i]);
    }
    free(message);
  } else {
    probe_and_receive(kSenderTag, "from the sender");
    /* A token around the probers' ring, each receiving it with a wildcard probe. */
    int token = 1;
    const int next = probers[(place + 1) % kProbers];
    if (place == 0) {
      MPI_Send(&token, 1, MPI_INT, next, kRingTag, MPI_COMM_WORLD);
      probe_and_receive(kRingTag, "token back");
    } else {
      MPI_Status status;
      MPI_Probe(MPI_ANY_SOURCE, kRingTag, MPI_COMM_WORLD, &status);
      MPI_Recv(&token, 1, MPI_INT, status.MPI_SOURCE, kRingTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      rank_log("token %d from %d", token, status.MPI_SOURCE);
      ++token;
      MPI_Send(&token, 1, MPI_INT, next, kRingTag, MPI_COMM_WORLD);
    }
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
