/* Intercommunicators: two groups (even and odd world ranks) joined by Intercomm_create;
 * point-to-point across (ranks name the remote group), Comm_test_inter and Comm_remote_size,
 * a rooted Bcast (MPI_ROOT / MPI_PROC_NULL on the root's side), Allreduce (each group gets the
 * other's sum), and Intercomm_merge into one intracommunicator. */
#include "rank_log.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int odd = rank % 2;

  MPI_Comm local;
  MPI_Comm_split(MPI_COMM_WORLD, odd, rank, &local);
  int local_rank, local_size;
  MPI_Comm_rank(local, &local_rank);
  MPI_Comm_size(local, &local_size);
  /* Leaders: world rank 0 for the evens, world rank 1 for the odds. */
  MPI_Comm inter;
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, odd ? 0 : 1, 5, &inter);
  int is_inter, remote_size;
  MPI_Comm_test_inter(inter, &is_inter);
  MPI_Comm_remote_size(inter, &remote_size);
  rank_log("intercomm: inter %d, local rank %d of %d, remote size %d", is_inter, local_rank,
           local_size, remote_size);

  /* Local rank i of each group exchanges with remote rank i, when the other group has one. */
  if (local_rank < remote_size) {
    int outgoing = 1000 + rank, incoming = -1;
    MPI_Status status;
    MPI_Sendrecv(&outgoing, 1, MPI_INT, local_rank, 1, &incoming, 1, MPI_INT, local_rank, 1, inter,
                 &status);
    rank_log_status("across", &status, MPI_INT);
    rank_log("across: value %d", incoming);
  }

  int broadcast = odd ? -1 : 4242;
  if (odd)
    MPI_Bcast(&broadcast, 1, MPI_INT, 0, inter);
  else
    MPI_Bcast(&broadcast, 1, MPI_INT, local_rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  rank_log("Bcast from the even leader: %d", broadcast);

  int contribution = rank + 1, remote_sum = 0;
  MPI_Allreduce(&contribution, &remote_sum, 1, MPI_INT, MPI_SUM, inter);
  rank_log("Allreduce gives the other group's sum: %d", remote_sum);

  MPI_Comm merged;
  MPI_Intercomm_merge(inter, odd, &merged);
  int merged_rank, merged_size;
  MPI_Comm_rank(merged, &merged_rank);
  MPI_Comm_size(merged, &merged_size);
  int world_rank_of_first;
  int world_rank = rank;
  MPI_Allreduce(&world_rank, &world_rank_of_first, 1, MPI_INT, MPI_MIN, merged);
  rank_log("merged (odds high): rank %d of %d, lowest world rank %d", merged_rank, merged_size,
           world_rank_of_first);

  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
