/* A real deadlock: ranks 0 and 1 each receive from the other before sending. Unmonitored it
 * hangs; the monitor must report both ranks, the communication sites they wait in and the
 * cycle, write a partial profile and abort. The receives are registered VCMON_SITE_COMM sites;
 * run_deadlock.sh finds their lines by the "site:" comments, and the static assertions keep
 * the table's lines equal to them. */
#include "vcmon/probes.h"

#include <mpi.h>
#include <stdio.h>

enum { kTag = 5, kRecvLine0 = 39, kRecvLine1 = 43 };

/* The static table vcmon-instrument would emit: the two receive statements. */
static const vcmon_site_desc sites[] = {
    {VCMON_SITE_COMM, kRecvLine0, 5, -1, "MPI_Recv", "", VCMON_PROBING_TIMED},
    {VCMON_SITE_COMM, kRecvLine1, 5, -1, "MPI_Recv", "", VCMON_PROBING_TIMED},
};
static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__, 2, sites};
static unsigned base;
__attribute__((constructor)) static void register_unit(void) {
  vcmon_register_unit(&unit, &base);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) {
      fprintf(stderr, "deadlock_program needs 2 ranks\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int value = rank, other = 1 - rank;
  vcmon_comm_enter(base + (unsigned)rank);
  if (rank == 0) {
    /* site: rank 0 */
    MPI_Recv(&value, 1, MPI_INT, other, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    _Static_assert(__LINE__ - 1 == kRecvLine0, "site table line of rank 0's receive");
  } else {
    /* site: rank 1 */
    MPI_Recv(&value, 1, MPI_INT, other, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    _Static_assert(__LINE__ - 1 == kRecvLine1, "site table line of rank 1's receive");
  }
  vcmon_comm_exit(base + (unsigned)rank);
  MPI_Send(&value, 1, MPI_INT, other, kTag, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
