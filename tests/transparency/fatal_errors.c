/* fatal_errors MODE: one rank makes an erroneous MPI call on a communicator the program made,
 * under the default error handler (MPI_ERRORS_ARE_FATAL, never set by the program), while the
 * others wait for it:
 *   split      MPI_Send to rank 99 of an MPI_Comm_split communicator (rank 1)
 *   cart       the same on an MPI_Cart_create communicator (rank 1)
 *   dup        the same on an MPI_Comm_dup of MPI_COMM_WORLD (rank 1)
 *   intercomm  MPI_Allreduce with MPI_IN_PLACE on an intercommunicator (rank 0; MPI forbids it)
 *   idup       MPI_Bcast from root 99 on an MPI_Comm_idup communicator (rank 1), whose blocking
 *              collectives the layer enters through a barrier of its own (UnshadowedCommunicators):
 *              it must not wait there for members that never come, and the report must name
 *              MPI_Bcast
 *   handle     MPI_Barrier on a communicator handle MPI never made (rank 1): the same
 *   idup_send  MPI_Send to rank 99 on an MPI_Comm_idup communicator (rank 1), whose blocking
 *              sends the layer may run as their nonblocking twins, polled: the report must
 *              name MPI_Send
 *   idup_truncate  MPI_Recv of one long where rank 0 sends two, on such a communicator (rank
 *              1), whose blocking receives the layer first waits for polled (MPI_Iprobe): the
 *              report must name MPI_Recv and the truncation
 *
 * What vcmon did before (found 2026-11-30): making a communicator's shadow, it switched the new
 * communicator's error handler off and set it back, and MPI_COMM_WORLD's at MPI_Init, which
 * MPICH then held as set explicitly: a fatal error aborted over that communicator instead of
 * MPI_COMM_WORLD, and the job ended killed (status 9, "rank 0 in comm 448") instead of with
 * the error class (6, "rank 1 in comm 0"); on the intercommunicator every rank crashed inside
 * MPICH (status 11).
 *
 * Expected outcome: the same exit status, output and MPI error report with and without vcmon
 * (compare.sh --status --stderr-part). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  MPI_Comm made = MPI_COMM_NULL;
  if (strcmp(mode, "split") == 0) {
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &made);
  } else if (strcmp(mode, "cart") == 0) {
    const int dims[1] = {size}, periods[1] = {0};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &made);
  } else if (strcmp(mode, "dup") == 0) {
    MPI_Comm_dup(MPI_COMM_WORLD, &made);
  } else if (strcmp(mode, "intercomm") == 0 && size % 2 == 0) {
    MPI_Comm local;
    const int group = rank < size / 2 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, group, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group == 0 ? size / 2 : 0, 7, &made);
  } else if (strcmp(mode, "idup") == 0 || strncmp(mode, "idup_", 5) == 0) {
    MPI_Request request;
    MPI_Comm_idup(MPI_COMM_WORLD, &made, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (strcmp(mode, "handle") == 0) {
    made = (MPI_Comm)0x84000123;
  } else {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n EVEN fatal_errors "
                      "split|cart|dup|intercomm|idup|idup_send|idup_truncate|handle\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("%s: the erroneous call comes\n", mode);
    fflush(stdout);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  long value = rank, sum = 0;
  if (strcmp(mode, "intercomm") == 0) {
    MPI_Allreduce(rank == 0 ? MPI_IN_PLACE : &value, &sum, 1, MPI_LONG, MPI_SUM, made);
  } else if (rank == 1 && strcmp(mode, "idup") == 0) {
    MPI_Bcast(&value, 1, MPI_LONG, 99, made);
  } else if (strcmp(mode, "idup_truncate") == 0) {
    const long pair[2] = {rank, rank};
    if (rank == 0)
      MPI_Send(pair, 2, MPI_LONG, 1, 0, made);
    else if (rank == 1)
      MPI_Recv(&value, 1, MPI_LONG, 0, 0, made, MPI_STATUS_IGNORE);
  } else if (rank == 1 && strcmp(mode, "handle") == 0) {
    MPI_Barrier(made);
  } else if (rank == 1) {
    MPI_Send(&value, 1, MPI_LONG, 99, 0, made);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("%d: not reached\n", rank);
  MPI_Finalize();
  return 0;
}
