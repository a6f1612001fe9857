/* Signal masks: after MPI_Init the program blocks the signals it means to take itself (with
 * sigwait or signalfd, as a program with a signal-handling thread does). A process-directed
 * signal goes to any thread that does not block it, so every thread that MPI_Init left without
 * that mask could take the signal instead, to its default action. Each rank counts those
 * threads: a monitor whose own threads take signals adds to the count. */
#include "rank_log.h"
#include <dirent.h>
#include <signal.h>

/* Whether the thread /proc/self/task/<task> blocks `signal`, from its SigBlk line; -1 when the
 * thread has ended meanwhile. */
static int task_blocks(const char* task, int signal) {
  char path[320];
  snprintf(path, sizeof path, "/proc/self/task/%s/status", task);
  FILE* status = fopen(path, "r");
  if (!status)
    return -1;
  char line[256];
  int blocks = -1;
  while (fgets(line, sizeof line, status)) {
    unsigned long long mask;
    if (sscanf(line, "SigBlk: %llx", &mask) == 1) {
      blocks = (int)((mask >> (signal - 1)) & 1u);
      break;
    }
  }
  fclose(status);
  return blocks;
}

/* How many threads of this process do not block `signal`. */
static int threads_taking(int signal) {
  DIR* tasks = opendir("/proc/self/task");
  if (!tasks)
    abort();
  int taking = 0;
  for (struct dirent* entry; (entry = readdir(tasks));) {
    if (entry->d_name[0] != '.' && task_blocks(entry->d_name, signal) == 0)
      ++taking;
  }
  closedir(tasks);
  return taking;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int signals[] = {SIGUSR1, SIGUSR2, SIGTERM, SIGINT, SIGALRM, SIGCHLD};
  sigset_t mine;
  sigemptyset(&mine);
  for (size_t i = 0; i < sizeof signals / sizeof signals[0]; ++i)
    sigaddset(&mine, signals[i]);
  pthread_sigmask(SIG_BLOCK, &mine, NULL);
  /* Communication may start threads of the MPI library's; let it, then count. */
  int token = rank;
  MPI_Allreduce(MPI_IN_PLACE, &token, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  for (size_t i = 0; i < sizeof signals / sizeof signals[0]; ++i)
    rank_log("signal %d: %d other threads may take it", signals[i], threads_taking(signals[i]));
  rank_log_print();
  MPI_Finalize();
  return 0;
}
