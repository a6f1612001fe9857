/* A halo exchange on 2 ranks, the case that once broke the report tree's invariant
 * (docs/runtime.md, "Accounting"): in each of 3 steps each rank posts two MPI_Irecv, two
 * MPI_Isend and waits in MPI_Waitall, and rank 1 works 20 ms before it sends, so rank 0 really
 * waits in MPI_Waitall. A report of its profile keeps the tree invariants only if each nonblocking
 * call holds its own time and the waiting is charged to the completion. Hand-instrumented. */
#include "hand_instrumented.h"

#include "sleep_ms.h"
#include <mpi.h>

enum { MAIN, STEP_LOOP, CALL_HALO, HALO, IRECV_LOW, IRECV_HIGH, ISEND_LOW, ISEND_HIGH, WAITALL };
enum { kSteps = 3, kCells = 256, kWorkMs = 20 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 41, 1, -1, "main", "main"},
    [STEP_LOOP] = {VCMON_SITE_LOOP, 49, 5, MAIN, "for", ""},
    [CALL_HALO] = {VCMON_SITE_CALL, 54, 7, STEP_LOOP, "halo", "halo"},
    [HALO] = {VCMON_SITE_PROCEDURE, 28, 1, -1, "halo", "halo"},
    [IRECV_LOW] = {VCMON_SITE_COMM, 32, 19, HALO, "MPI_Irecv", ""},
    [IRECV_HIGH] = {VCMON_SITE_COMM, 34, 8, HALO, "MPI_Irecv", ""},
    [ISEND_LOW] = {VCMON_SITE_COMM, 35, 19, HALO, "MPI_Isend", ""},
    [ISEND_HIGH] = {VCMON_SITE_COMM, 37, 8, HALO, "MPI_Isend", ""},
    [WAITALL] = {VCMON_SITE_COMM, 38, 17, HALO, "MPI_Waitall", ""},
};
VCMON_TEST_UNIT(sites)

/* On 2 ranks both neighbours are the other rank; the tags tell the two halos apart. */
static void halo(double* cells, int neighbour) {
  PROC_SCOPE(HALO);
  MPI_Request requests[4];
  MPI_Status statuses[4];
  COMM(IRECV_LOW, MPI_Irecv(cells, 1, MPI_DOUBLE, neighbour, 0, MPI_COMM_WORLD, &requests[0]));
  COMM(IRECV_HIGH,
       MPI_Irecv(cells + kCells - 1, 1, MPI_DOUBLE, neighbour, 1, MPI_COMM_WORLD, &requests[1]));
  COMM(ISEND_LOW, MPI_Isend(cells + 1, 1, MPI_DOUBLE, neighbour, 1, MPI_COMM_WORLD, &requests[2]));
  COMM(ISEND_HIGH,
       MPI_Isend(cells + kCells - 2, 1, MPI_DOUBLE, neighbour, 0, MPI_COMM_WORLD, &requests[3]));
  COMM(WAITALL, MPI_Waitall(4, requests, statuses));
}

int main(int argc, char** argv) {
  PROC_SCOPE(MAIN);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double cells[kCells] = {0};
  {
    LOOP_SCOPE(STEP_LOOP);
    for (int step = 0; step < kSteps; ++step) {
      vcmon_loop_iter(SITE(STEP_LOOP));
      if (rank == 1) {
        sleep_ms(kWorkMs);
      }
      CALL(CALL_HALO, halo(cells, 1 - rank));
    }
  }
  MPI_Finalize();
  return 0;
}
