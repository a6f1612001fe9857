/* late_answer [HOLD_MS]: a rank answers a state request long after its asker entered
 * MPI_Finalize. Rank 1 takes an exclusive lock on its own window, and after a barrier sends
 * rank 0 one message, then holds the lock HOLD_MS (default 2000) more before it unlocks.
 * Rank 2 locks rank 1's window and puts a value there: it waits inside one-sided
 * synchronisation until rank 1 unlocks. Rank 0 receives with MPI_ANY_SOURCE: rank 2 could still
 * send, so the monitor asks it for its state, gets no answer (it is inside a call the monitor
 * cannot poll) and takes rank 1's message once rank 2 has been stuck a while. Rank 0 then
 * finalizes at once; rank 2 can only answer once it leaves its lock, HOLD_MS later. No
 * collective follows the receive, so nothing else makes rank 0 wait for that answer. Rank 0
 * prints what it received; rank 1 what rank 2 put in its window.
 *
 * Expected outcome: status 0, the same output with and without vcmon, and no warning about a
 * message that was not matched (a monitor that stopped waiting for its answers after a fixed
 * grace at MPI_Finalize left rank 2's reply unreceived, and MPICH's UCX layer reported it). */
#include "rank_log.h"

#include <time.h>

enum { kTag = 17 };

static void sleep_ms(int ms) {
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0) {
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(3);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int hold_ms = argc > 1 ? atoi(argv[1]) : 2000;
  /* The window is ranks 1 and 2's alone: rank 0 calls nothing collective after its receive. */
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 1 || rank == 2 ? 0 : MPI_UNDEFINED, rank, &pair);
  int* base = NULL;
  MPI_Win window = MPI_WIN_NULL;
  if (pair != MPI_COMM_NULL) {
    MPI_Win_allocate(rank == 1 ? (MPI_Aint)sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, pair,
                     &base, &window);
  }
  if (rank == 1) {
    *base = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, window);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    sleep_ms(hold_ms / 10); /* rank 2 is inside its lock by then */
    int value = -1;
    MPI_Status status;
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &status);
    printf("rank 0 received %d from rank %d\n", value, status.MPI_SOURCE);
    fflush(stdout);
  } else if (rank == 1) {
    const int value = 4242;
    MPI_Send(&value, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
    sleep_ms(hold_ms);
    MPI_Win_unlock(0, window);
  } else if (rank == 2) {
    const int value = 77;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, window);
    MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, window);
    MPI_Win_unlock(0, window);
  }
  if (rank == 1) {
    /* Rank 2's put is there once its unlock completed; rank 1 learns that from the window's
     * next exclusive epoch of its own. */
    for (int seen = -1; seen != 77;) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, window);
      seen = *base;
      MPI_Win_unlock(0, window);
      if (seen != 77) {
        sleep_ms(1);
      }
    }
    printf("rank 1 window holds %d\n", *base);
    fflush(stdout);
  }
  if (pair != MPI_COMM_NULL) {
    MPI_Win_free(&window);
    MPI_Comm_free(&pair);
  }
  MPI_Finalize();
  return 0;
}
