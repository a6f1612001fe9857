/* A program of 2001 sites whose profile grows with the ranks, for the time MPI_Finalize takes
 * and rank 0's peak RSS (bench/runtime/finalize_scaling.sh, docs/evaluation.md "Profiles at
 * scale"). Its static tables are registered as vcmon-instrument would emit them: main, and 400
 * times a call from main to a procedure holding a loop with two communication statements, each
 * an MPI_Sendrecv with a neighbour. Every rank runs every site, so each rank's records have the
 * same size and the profile grows linearly with the ranks. Rank 0 prints
 * `finalize_ns=... rss_kib=...` after MPI_Finalize. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "vcmon/probes.h"

#include <mpi.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

enum { kProcedures = 400, kSitesEach = 5, kSites = 1 + kProcedures * kSitesEach };

static vcmon_site_desc sites[kSites];
static unsigned base;

/* Site i of procedure p: 0 the call in main, 1 the procedure, 2 its loop, 3 and 4 its sends. */
static unsigned site_of(int p, int i) {
  return base + 1u + (unsigned)(p * kSitesEach + i);
}

__attribute__((constructor)) static void register_unit(void) {
  sites[0] = (vcmon_site_desc){VCMON_SITE_PROCEDURE, 1, 1, -1, "main", "main", VCMON_PROBING_TIMED};
  for (int p = 0; p < kProcedures; ++p) {
    const int at = 1 + p * kSitesEach;
    const unsigned line = 10u + (unsigned)p;
    sites[at] = (vcmon_site_desc){VCMON_SITE_CALL, line, 5, 0, "work", "", VCMON_PROBING_TIMED};
    sites[at + 1] =
        (vcmon_site_desc){VCMON_SITE_PROCEDURE, line, 1, -1, "work", "", VCMON_PROBING_TIMED};
    sites[at + 2] =
        (vcmon_site_desc){VCMON_SITE_LOOP, line, 3, at + 1, "for", "", VCMON_PROBING_TIMED};
    sites[at + 3] = (vcmon_site_desc){VCMON_SITE_COMM,    line, 7, at + 2, "MPI_Sendrecv", "",
                                      VCMON_PROBING_TIMED};
    sites[at + 4] = (vcmon_site_desc){VCMON_SITE_COMM,    line, 9, at + 2, "MPI_Sendrecv", "",
                                      VCMON_PROBING_TIMED};
  }
  static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__, kSites, sites};
  vcmon_register_unit(&unit, &base);
}

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  vcmon_proc_enter(base);
  int rank;
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int out = rank;
  int in = 0;
  for (int p = 0; p < kProcedures; ++p) {
    vcmon_call_enter(site_of(p, 0));
    vcmon_proc_enter(site_of(p, 1));
    vcmon_loop_enter(site_of(p, 2));
    vcmon_loop_iter(site_of(p, 2));
    vcmon_comm_enter(site_of(p, 3));
    MPI_Sendrecv(&out, 1, MPI_INT, right, 0, &in, 1, MPI_INT, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    vcmon_comm_exit(site_of(p, 3));
    vcmon_comm_enter(site_of(p, 4));
    MPI_Sendrecv(&out, 1, MPI_INT, left, 1, &in, 1, MPI_INT, right, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    vcmon_comm_exit(site_of(p, 4));
    vcmon_loop_exit(site_of(p, 2));
    vcmon_proc_exit(site_of(p, 1));
    vcmon_call_exit(site_of(p, 0));
  }
  vcmon_proc_exit(base);
  const long long start = now_ns();
  MPI_Finalize();
  const long long end = now_ns();
  if (rank == 0) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("finalize_ns=%lld rss_kib=%ld\n", end - start, usage.ru_maxrss);
  }
  return 0;
}
