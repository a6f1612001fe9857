/* squatted_stamp_segment [SQUATTING RANK]
 *
 * Before MPI_Init, the squatting rank (default 1; told by the PMI_RANK that MPICH's launcher
 * sets) makes a directory under the name of its own stamp segment in /dev/shm
 * (/vcmon-stamps-<uid>-<pid>, NodeSegment.cpp), which vcmon can neither replace nor remove:
 * the job must agree to send every stamp as a message and run as without vcmon. Then each
 * rank sends to its right neighbour (blocking, nonblocking and synchronous sends), receives
 * from its left one (MPI_Recv and MPI_Irecv), and rank 0 also takes one message from every
 * other rank by MPI_ANY_SOURCE; rank 0 prints what arrived. The directory is removed at the
 * end.
 *
 * Expected outcome: status 0 and the same output with and without vcmon (and, monitored, the
 * line saying that stamps travel as messages on stderr). */
#include "rank_log.h"

#include <sys/stat.h>
#include <unistd.h>

enum { kRounds = 50, kTag = 7, kWildTag = 8 };

int main(int argc, char** argv) {
  const int squatter = argc > 1 ? atoi(argv[1]) : 1;
  const char* launcher_rank = getenv("PMI_RANK");
  char squat[128] = "";
  if (launcher_rank != NULL && atoi(launcher_rank) == squatter) {
    snprintf(squat, sizeof squat, "/dev/shm/vcmon-stamps-%u-%ld", (unsigned)getuid(),
             (long)getpid());
    if (mkdir(squat, 0700) != 0) {
      perror(squat);
      return 1;
    }
  }
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  uint64_t received = 0;
  for (int round = 0; round < kRounds; ++round) {
    const int value = rank * 1000 + round;
    int incoming = -1;
    MPI_Request request;
    MPI_Irecv(&incoming, 1, MPI_INT, left_of(rank, size), kTag, MPI_COMM_WORLD, &request);
    if (round % 3 == 0)
      MPI_Ssend(&value, 1, MPI_INT, right_of(rank, size), kTag, MPI_COMM_WORLD);
    else
      MPI_Send(&value, 1, MPI_INT, right_of(rank, size), kTag, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    received = received * 31 + (uint64_t)incoming;
  }
  if (rank == 0) {
    struct line_set senders = {0};
    for (int i = 1; i < size; ++i) {
      int from = -1;
      MPI_Status status;
      MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, kWildTag, MPI_COMM_WORLD, &status);
      line_set_add(&senders, "wildcard receive from %d (says %d)", status.MPI_SOURCE, from);
    }
    line_set_log_sorted(&senders);
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, kWildTag, MPI_COMM_WORLD);
  }
  rank_log("%d rounds around the ring: checksum %016llx", kRounds, (unsigned long long)received);
  rank_log_print();
  MPI_Finalize();
  if (squat[0] != '\0' && rmdir(squat) != 0) {
    perror(squat);
    return 1;
  }
  return 0;
}
