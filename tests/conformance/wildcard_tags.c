/* wildcard_tags ROUNDS MODE (4 ranks): rank 0 posts MPI_Irecv(MPI_ANY_SOURCE, tag 2), then
 * MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG), and waits for both with MPI_Waitany then MPI_Wait.
 * MPI gives a message to the first posted receive that matches it, so the second receive may
 * take any message but one the first takes.
 *   late   Rank 2 sends tag 3 at once: only the second receive can take it. Rank 1 sends the
 *          tag-2 message only after its own MPI_Recv(MPI_ANY_SOURCE) has taken rank 3's
 *          message, which rank 3 sends after a 20 ms pause; rank 0 then answers rank 1.
 *   early  Rank 1 sends two tag-2 messages (then tag 8, which rank 0 probes for, so both are
 *          there before the receives are posted): the first receive takes the first, the
 *          second receive the second. Rank 2's tag-3 message comes after, received by name.
 * Each round ends in a barrier.
 *
 * `late` hung every run monitored: the second receive waited for the first one's decision,
 * which waited for rank 1, whose own decision waited for rank 0 because rank 0's state said
 * the tag-3 message there would end its wait (docs/pmpi.md, the life of a wildcard Irecv).
 *
 * Expected outcome: status 0, the same output with and without vcmon; every receive takes the
 * message named above. */
#include "rank_log.h"

#include <time.h>

enum { kFirstTag = 2, kOtherTag = 3, kAnswerTag = 5, kLateTag = 7, kThereTag = 8, kGoTag = 9 };

static void pause_ms(long ms) {
  const struct timespec pause = {0, ms * 1000000L};
  nanosleep(&pause, NULL);
}

/* Rank 0: the two receives, then (`go`) rank 2 may send; true when each took the message
 * `expected` names, as {source, tag, value} for the first then the second. */
static int two_receives(const int expected[2][3], int go) {
  int values[2] = {-1, -1};
  MPI_Request requests[2];
  MPI_Status statuses[2];
  MPI_Irecv(&values[0], 1, MPI_INT, MPI_ANY_SOURCE, kFirstTag, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(&values[1], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &requests[1]);
  if (go) {
    MPI_Send(&go, 1, MPI_INT, 2, kGoTag, MPI_COMM_WORLD);
  }
  int first;
  MPI_Status status;
  MPI_Waitany(2, requests, &first, &status);
  statuses[first] = status;
  MPI_Wait(&requests[1 - first], &statuses[1 - first]);
  int right = 1;
  for (int k = 0; k < 2; ++k) {
    right = right && statuses[k].MPI_SOURCE == expected[k][0] &&
            statuses[k].MPI_TAG == expected[k][1] && values[k] == expected[k][2];
  }
  return right;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 20;
  const int late = !(argc > 2 && strcmp(argv[2], "early") == 0);
  if (size != 4) {
    if (rank == 0) {
      fprintf(stderr, "wildcard_tags: needs 4 ranks\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int right = 0;
  for (int r = 0; r < rounds; ++r) {
    int value = 0;
    MPI_Status status;
    if (rank == 0) {
      const int late_messages[2][3] = {{1, kFirstTag, r}, {2, kOtherTag, r}};
      const int early_messages[2][3] = {{1, kFirstTag, 2 * r}, {1, kFirstTag, 2 * r + 1}};
      if (late) {
        right += two_receives(late_messages, 0);
        MPI_Send(&r, 1, MPI_INT, 1, kAnswerTag, MPI_COMM_WORLD);
      } else {
        MPI_Probe(1, kThereTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&value, 1, MPI_INT, 1, kThereTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        right += two_receives(early_messages, 1);
        MPI_Recv(&value, 1, MPI_INT, 2, kOtherTag, MPI_COMM_WORLD, &status);
        right += value == r;
      }
    } else if (rank == 1 && late) {
      MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      right += status.MPI_SOURCE == 3 && status.MPI_TAG == kLateTag && value == r;
      MPI_Send(&r, 1, MPI_INT, 0, kFirstTag, MPI_COMM_WORLD);
      MPI_Recv(&value, 1, MPI_INT, 0, kAnswerTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      right += value == r;
    } else if (rank == 1) {
      const int values[3] = {2 * r, 2 * r + 1, r};
      for (int k = 0; k < 2; ++k) {
        MPI_Send(&values[k], 1, MPI_INT, 0, kFirstTag, MPI_COMM_WORLD);
      }
      MPI_Send(&values[2], 1, MPI_INT, 0, kThereTag, MPI_COMM_WORLD);
    } else if (rank == 2) {
      if (!late) {
        MPI_Recv(&value, 1, MPI_INT, 0, kGoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      MPI_Send(&r, 1, MPI_INT, 0, kOtherTag, MPI_COMM_WORLD);
    } else if (late) {
      pause_ms(20);
      MPI_Send(&r, 1, MPI_INT, 1, kLateTag, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  rank_log("rank %d: %d rounds, %d receives as expected", rank, rounds, right);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
