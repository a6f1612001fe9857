/* MPI 4.0 partitioned communication, which the layer does not wrap, next to traffic it does:
 * each rank sends 4 partitions to its right (marked ready in reverse order) while receiving
 * from its left, 3 rounds of one persistent pair (Psend_init, Precv_init, Start, Pready,
 * Parrived). In the same rounds each rank also takes a message from MPI_ANY_SOURCE on the same
 * communicator (the layer decides it in virtual time), and completes both kinds of request in
 * one call: Waitall over the partitioned pair and the wildcard receive, then Test polling on
 * the partitioned receive alone. Partitioned messages match only partitioned operations, so
 * what each receive gets is fixed.
 *
 * Expected outcome: status 0 and the same output with and without vcmon, every run. Before: 1
 * run in 4 hung, two ways. A rank looping on MPI_Parrived (not wrapped) never answered state
 * requests, so a wildcard receive elsewhere could not be decided while that rank waited for
 * the decider's partitioned data. And a rank in MPI_Waitall over an active partitioned send
 * (a request the layer does not track) beside its wildcard receive answered with the clock of
 * its entry, frozen, while its clock in fact ran on: a decider waited for it forever. */
#include "rank_log.h"

enum { kPartitions = 4, kPerPartition = 8, kRounds = 3, kPartitionedTag = 5, kWildcardTag = 6 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(3);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = right_of(rank, size), left = left_of(rank, size);
  int out[kPartitions * kPerPartition], in[kPartitions * kPerPartition];
  MPI_Request partitioned[2];
  MPI_Psend_init(out, kPartitions, kPerPartition, MPI_INT, right, kPartitionedTag,
                 MPI_COMM_WORLD, MPI_INFO_NULL, &partitioned[0]);
  MPI_Precv_init(in, kPartitions, kPerPartition, MPI_INT, left, kPartitionedTag, MPI_COMM_WORLD,
                 MPI_INFO_NULL, &partitioned[1]);
  for (int round = 0; round < kRounds; ++round) {
    MPI_Startall(2, partitioned);
    /* The wildcard receive is posted while the partitioned pair is active. */
    int wildcard_in = -1;
    MPI_Request requests[3] = {partitioned[0], partitioned[1], MPI_REQUEST_NULL};
    MPI_Irecv(&wildcard_in, 1, MPI_INT, MPI_ANY_SOURCE, kWildcardTag, MPI_COMM_WORLD,
              &requests[2]);
    for (int p = kPartitions - 1; p >= 0; --p) {
      for (int i = 0; i < kPerPartition; ++i)
        out[p * kPerPartition + i] = rank * 10000 + round * 100 + p * kPerPartition + i;
      MPI_Pready(p, partitioned[0]);
    }
    const int wildcard_out = rank * 1000 + round;
    MPI_Send(&wildcard_out, 1, MPI_INT, left, kWildcardTag, MPI_COMM_WORLD);
    int arrived = 0;
    while (!arrived)
      MPI_Parrived(partitioned[1], 0, &arrived);
    MPI_Status statuses[3];
    MPI_Waitall(3, requests, statuses);
    rank_log("round %d: partitioned checksum %llx, first %d, wildcard %d from %d", round,
             (unsigned long long)checksum(in, sizeof in), in[0], wildcard_in,
             statuses[2].MPI_SOURCE);
  }
  /* Test polling on the partitioned receive alone, its send completed with Wait. */
  MPI_Startall(2, partitioned);
  MPI_Pready_range(0, kPartitions - 1, partitioned[0]);
  int done = 0;
  while (!done)
    MPI_Test(&partitioned[1], &done, MPI_STATUS_IGNORE);
  MPI_Wait(&partitioned[0], MPI_STATUS_IGNORE);
  rank_log("Test-polled round: checksum %llx", (unsigned long long)checksum(in, sizeof in));
  MPI_Request_free(&partitioned[0]);
  MPI_Request_free(&partitioned[1]);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
