/* Ends in the way argv[1] names, after some probes: "abort" (rank 1 calls MPI_Abort),
 * "exit" (returns without MPI_Finalize), "sigterm" (a signal ends it). Each must leave a
 * partial profile. "fork" finalizes normally after a forked child has exited: only the
 * parent's profile may appear. "fork_sigterm": the same with a child ended by SIGTERM, whose
 * inherited handler once made the parent write a partial profile and end instead. "file_limit":
 * rank 0 may write only 1 KiB per file, so SIGXFSZ kills it while it writes the profile (about 2.4
 * KiB) at MPI_Finalize. "chdir DIR" makes DIR and moves into it before MPI_Finalize: the profile
 * must still go where a relative VCMON_OUTPUT (or the default) named it from the starting
 * directory. */
#include "hand_instrumented.h"

#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAIN, CALL_WORK, WORK, WORK_LOOP };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 40, 1, -1, "main", "main"},
    [CALL_WORK] = {VCMON_SITE_CALL, 45, 3, MAIN, "work", "work"},
    [WORK] = {VCMON_SITE_PROCEDURE, 25, 1, -1, "work", "work"},
    [WORK_LOOP] = {VCMON_SITE_LOOP, 27, 3, WORK, "for", ""},
};
VCMON_TEST_UNIT(sites)

static void work(void) {
  PROC_SCOPE(WORK);
  LOOP_SCOPE(WORK_LOOP);
  for (int i = 0; i < 5; ++i) {
    vcmon_loop_iter(SITE(WORK_LOOP));
  }
}

int main(int argc, char** argv) {
  PROC_SCOPE(MAIN);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CALL(CALL_WORK, work());
  CALL(CALL_WORK, work());
  const char* how = argc > 1 ? argv[1] : "";
  if (strcmp(how, "abort") == 0) {
    if (rank == 1) {
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    sleep(30); /* rank 0 waits to be ended by the abort */
  } else if (strcmp(how, "sigterm") == 0) {
    raise(SIGTERM);
    sleep(30); /* the monitor writes the profile, then the signal ends the process */
  } else if (strcmp(how, "fork") == 0) {
    const pid_t child = fork();
    if (child == 0) {
      exit(0); /* runs the exit handlers the child inherited */
    }
    waitpid(child, NULL, 0);
    MPI_Finalize();
  } else if (strcmp(how, "fork_sigterm") == 0) {
    const pid_t child = fork();
    if (child == 0) {
      for (;;) {
        pause();
      }
    }
    kill(child, SIGTERM);
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGTERM) {
      return 4; /* the child must end of the signal, as without vcmon */
    }
    MPI_Finalize();
  } else if (strcmp(how, "file_limit") == 0) {
    if (rank == 0) {
      const struct rlimit limit = {1024, 1024};
      setrlimit(RLIMIT_FSIZE, &limit);
    }
    MPI_Finalize();
  } else if (strcmp(how, "chdir") == 0 && argc > 2) {
    mkdir(argv[2], 0755); /* every rank tries; one makes it */
    if (chdir(argv[2]) != 0) {
      return 3;
    }
    MPI_Finalize();
  } else if (strcmp(how, "exit") != 0) {
    MPI_Finalize();
    return 2; /* unknown mode */
  }
  return 0;
}
