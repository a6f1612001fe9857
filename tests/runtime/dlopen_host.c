/* dlopen_host PLUGIN: an MPI program not linked with libvcmon that loads PLUGIN (dlopen_plugin,
 * linked with libvcmon) three times, calls it and unloads it. libvcmon's initial-exec TLS then
 * comes from what glibc keeps spare in the static TLS block, a few hundred bytes: with the
 * activation stack in TLS (12 KB) the dlopen failed ("cannot allocate memory in static TLS
 * block") and the program with it. Prints "plugin total T" once per load on rank 0, and fails
 * when a thread of the monitor outlives an unload. */
#include <dirent.h>
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Threads of this process named vcmon-*: none may outlive the library whose code they run (a
 * signal thread left behind by each unload started, under load, in unmapped code). */
static int vcmon_threads(void) {
  int count = 0;
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == NULL) {
    return 0;
  }
  for (struct dirent* task; (task = readdir(tasks)) != NULL;) {
    char path[300];
    char name[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", task->d_name);
    FILE* comm = fopen(path, "r");
    if (comm != NULL) {
      if (fgets(name, sizeof name, comm) != NULL && strncmp(name, "vcmon-", 6) == 0) {
        ++count;
      }
      fclose(comm);
    }
  }
  closedir(tasks);
  return count;
}

/* vcmon_threads() once it is 0, or after 2 s. A joined thread has ended for pthread_join as soon
 * as the kernel clears its tid, a moment before its task leaves /proc/self/task: the sanitized
 * CI run saw one there right after a dlclose. A thread left behind stays. */
static int vcmon_threads_settled(void) {
  int left = vcmon_threads();
  for (int waited_ms = 0; left != 0 && waited_ms < 2000; ++waited_ms) {
    const struct timespec millisecond = {0, 1000000};
    nanosleep(&millisecond, NULL);
    left = vcmon_threads();
  }
  return left;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2) {
    if (rank == 0) {
      fprintf(stderr, "usage: dlopen_host PLUGIN\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int load = 0; load < 3; ++load) {
    void* plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (plugin == NULL) {
      fprintf(stderr, "dlopen_host: rank %d: %s\n", rank, dlerror());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long (*run)(int) = (long (*)(int))dlsym(plugin, "plugin_run");
    const long total = run != NULL ? run(1000) : -1;
    if (rank == 0) {
      printf("plugin total %ld\n", total);
    }
    dlclose(plugin);
    const int left = vcmon_threads_settled();
    if (left != 0) {
      fprintf(stderr, "dlopen_host: rank %d: %d vcmon threads outlived the plugin\n", rank, left);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  MPI_Finalize();
  return 0;
}
