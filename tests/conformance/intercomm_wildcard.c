/* intercomm_wildcard ROUNDS RECEIVE AFTER: MPI_COMM_WORLD split in two halves joined by
 * MPI_Intercomm_create (an even number of ranks). Every round, each rank exchanges one message
 * with the rank of the same index in the other group, receiving it from MPI_ANY_SOURCE on the
 * intercommunicator, then enters a collective on the intercommunicator:
 *   RECEIVE  sendrecv_replace | sendrecv | recv (MPI_Isend, MPI_Recv, MPI_Wait)
 *            | world: instead, the second rank of the first group takes one message from each
 *            rank of the second group with MPI_Recv(MPI_ANY_SOURCE) on MPI_COMM_WORLD, while
 *            the rest of its group is already in the collective
 *   AFTER    barrier (MPI_Barrier on the intercommunicator) | merge (MPI_Intercomm_merge)
 *
 * The hang on 4 ranks (found 2026-11-30): a rank in a blocking collective on an
 * intercommunicator told the deadlock check it was running, at its clock when it entered. A
 * remote rank whose wildcard receive had to rule out a message from it (the other rank of its
 * group sent one) waited for that clock to pass its candidate's arrival, which it never did:
 * the collective waited for the deciding rank. About nine runs in ten hung within one round.
 * `world` hung after that fix (about one run in three, with merge): a rank in the collective
 * reported waiting for the remote group only, all of it inside the same collective, so the
 * deciding rank of its own group, which the remote members waited for, seemed not to hold it.
 *
 * Expected outcome: status 0, the same output with and without vcmon: each rank received,
 * every round, the message of its partner in the other group (world: rank 1 one message from
 * each rank of the second group). */
#include "rank_log.h"

#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 0;
  const char* receive = argc > 2 ? argv[2] : "";
  const char* after = argc > 3 ? argv[3] : "";
  if (argc != 4 || rounds < 1 || size % 2 != 0 || size > 128 ||
      (strcmp(receive, "sendrecv_replace") != 0 && strcmp(receive, "sendrecv") != 0 &&
       strcmp(receive, "recv") != 0 && strcmp(receive, "world") != 0) ||
      (strcmp(after, "barrier") != 0 && strcmp(after, "merge") != 0)) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n EVEN intercomm_wildcard ROUNDS "
                      "sendrecv_replace|sendrecv|recv|world barrier|merge\n");
    MPI_Finalize();
    return 2;
  }
  const int group = rank < size / 2 ? 0 : 1;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, group, rank, &local);
  int index;
  MPI_Comm_rank(local, &index);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group == 0 ? size / 2 : 0, 7, &inter);
  int wrong = 0;
  for (int round = 0; round < rounds; ++round) {
    int sent[2] = {rank, round};
    int got[2] = {-1, -1};
    MPI_Status status;
    MPI_Request request;
    if (strcmp(receive, "world") == 0) {
      if (rank == 1) {
        int from[64] = {0}; /* messages from each rank of the second group */
        for (int i = 0; i < size / 2; ++i) {
          MPI_Recv(got, 2, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &status);
          wrong += got[0] != status.MPI_SOURCE || got[1] != round || status.MPI_SOURCE < size / 2 ||
                   from[status.MPI_SOURCE - size / 2]++ != 0;
        }
      } else if (group == 1) {
        MPI_Send(sent, 2, MPI_INT, 1, 9, MPI_COMM_WORLD);
      }
    } else if (strcmp(receive, "sendrecv_replace") == 0) {
      memcpy(got, sent, sizeof sent);
      MPI_Sendrecv_replace(got, 2, MPI_INT, index, 9, MPI_ANY_SOURCE, 9, inter, &status);
    } else if (strcmp(receive, "sendrecv") == 0) {
      MPI_Sendrecv(sent, 2, MPI_INT, index, 9, got, 2, MPI_INT, MPI_ANY_SOURCE, 9, inter, &status);
    } else {
      MPI_Isend(sent, 2, MPI_INT, index, 9, inter, &request);
      MPI_Recv(got, 2, MPI_INT, MPI_ANY_SOURCE, 9, inter, &status);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    const int partner = group == 0 ? size / 2 + index : index;
    if (strcmp(receive, "world") != 0) {
      wrong += got[0] != partner || got[1] != round || status.MPI_SOURCE != index;
    }
    if (strcmp(after, "barrier") == 0) {
      MPI_Barrier(inter);
    } else {
      MPI_Comm merged;
      MPI_Intercomm_merge(inter, group, &merged);
      MPI_Comm_free(&merged);
    }
  }
  rank_log("%d rounds, %d messages not as expected", rounds, wrong);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
