/* query_example: the vcmon query API (vcmon/query.h) from inside a running MPI program.
 *
 *   mpicc -O2 -o query_example query_example.c -lvcmon && mpiexec -n 4 ./query_example
 *
 * Each rank works in rounds (a ring exchange and some arithmetic), reads its own records twice
 * and checks that the live figures grew in between; pauses recording with MPI_Pcontrol(0),
 * works, resumes with MPI_Pcontrol(1) and checks that the paused work is not in its records;
 * resets them with MPI_Pcontrol(2) and works a little more; then rank 0 gathers every rank's
 * records and prints their totals, the costliest path of calling contexts (from main when the
 * program was instrumented with vcmon-mpicc, an MPI function when it was only linked with
 * libvcmon) and the costliest communication statement; MPI_Pcontrol(3) writes a profile on the
 * spot. */
#include <mpi.h>
#include <stdio.h>
#include <vcmon/query.h>

static double sink;

static void work(int rounds) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double token = rank;
  for (int round = 0; round < rounds; ++round) {
    double received = 0;
    MPI_Sendrecv(&token, 1, MPI_DOUBLE, (rank + 1) % size, 0, &received, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 20000; ++i) {
      received = received * 0.999 + i * 1e-9;
    }
    token = received;
  }
  sink += token;
}

static vcmon_totals local_totals(void) {
  vcmon_totals totals = {0};
  vcmon_snapshot* snapshot = NULL;
  if (vcmon_snapshot_local(&snapshot) == VCMON_QUERY_OK) {
    vcmon_snapshot_totals(snapshot, 0, &totals);
  }
  vcmon_snapshot_free(snapshot);
  return totals;
}

/* The costliest path of exact calling contexts on the rank that ran longest: from the top,
 * the child with the most virtual time at each level (a call leads to the procedure it
 * activated). Compiled with vcmon-mpicc it runs from main through loops and calls; only linked
 * with libvcmon, it is the costliest MPI function. */
static void print_hot_path(const vcmon_snapshot* all) {
  int longest = 0;
  uint64_t longest_ns = 0;
  for (int i = 0; i < vcmon_snapshot_rank_count(all); ++i) {
    vcmon_totals t;
    if (vcmon_snapshot_totals(all, i, &t) == VCMON_QUERY_OK && t.virtual_ns > longest_ns) {
      longest = i;
      longest_ns = t.virtual_ns;
    }
  }
  const vcmon_context_record* contexts = NULL;
  vcmon_snapshot_contexts(all, longest, &contexts);
  printf("hot path on rank %d:", vcmon_snapshot_rank(all, longest));
  const char* separator = "";
  for (size_t context = VCMON_NO_CONTEXT;;) {
    const size_t* children = NULL;
    const size_t n = vcmon_snapshot_context_children(all, longest, context, &children);
    uint64_t best_time = 0;
    context = VCMON_NO_CONTEXT;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t time = vcmon_snapshot_context_time(all, longest, children[i]);
      if (time > best_time) {
        context = children[i];
        best_time = time;
      }
    }
    if (context == VCMON_NO_CONTEXT) {
      break;
    }
    vcmon_site_info info;
    vcmon_snapshot_site(all, contexts[context].site, &info);
    if (info.kind != VCMON_SITE_CALL) { /* a call's procedure is next */
      printf("%s %s", separator, info.name);
      if (info.line > 0) {
        printf(":%u", info.line);
      }
      printf(" (%.3f ms)", best_time * 1e-6);
      separator = " ->";
    }
  }
  printf("\n");
}

static void print_costliest_communication(const vcmon_snapshot* all) {
  unsigned best = VCMON_NO_SITE;
  uint64_t best_time = 0;
  for (unsigned site = 0; site < vcmon_snapshot_site_count(all); ++site) {
    vcmon_site_info info;
    vcmon_snapshot_site(all, site, &info);
    const uint64_t time = vcmon_snapshot_site_time(all, VCMON_ALL_RANKS, site);
    if (info.kind == VCMON_SITE_COMM && time > best_time) {
      best = site;
      best_time = time;
    }
  }
  if (best != VCMON_NO_SITE) {
    vcmon_site_info info;
    vcmon_snapshot_site(all, best, &info);
    printf("costliest communication: %s (%.3f ms over all ranks)\n", info.name, best_time * 1e-6);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  work(50);
  const vcmon_totals first = local_totals();
  work(50);
  const vcmon_totals second = local_totals();
  const int grew = second.virtual_ns > first.virtual_ns && second.messages > first.messages;
  printf("rank %d: live figures %s: virtual %.3f -> %.3f ms, messages %llu -> %llu\n", rank,
         grew ? "grew" : "did not grow", first.virtual_ns * 1e-6, second.virtual_ns * 1e-6,
         (unsigned long long)first.messages, (unsigned long long)second.messages);

  MPI_Pcontrol(0);
  work(20);
  MPI_Pcontrol(1);
  const vcmon_totals resumed = local_totals();
  /* The local snapshots' own queries are not messages: only the paused rounds could count. */
  printf("rank %d: paused work %s\n", rank,
         resumed.messages == second.messages ? "not recorded" : "recorded (wrong)");

  MPI_Pcontrol(2);
  const vcmon_totals reset = local_totals();
  printf("rank %d: records %s\n", rank, reset.messages == 0 ? "reset" : "not reset (wrong)");
  work(10);

  vcmon_snapshot* all = NULL;
  if (vcmon_snapshot_gather(0, &all) == VCMON_QUERY_OK && all != NULL) {
    printf("gathered %d of %d ranks, job %llu\n", vcmon_snapshot_rank_count(all),
           vcmon_snapshot_job_ranks(all), vcmon_job_id());
    for (int i = 0; i < vcmon_snapshot_rank_count(all); ++i) {
      vcmon_totals t;
      vcmon_snapshot_totals(all, i, &t);
      printf("  rank %d: virtual %.3f ms, intrusion %.3f ms, %llu messages, %llu bytes\n",
             vcmon_snapshot_rank(all, i), t.virtual_ns * 1e-6, t.intrusion_ns * 1e-6,
             (unsigned long long)t.messages, (unsigned long long)t.bytes);
    }
    print_hot_path(all);
    print_costliest_communication(all);
    vcmon_snapshot_free(all);
  }
  MPI_Pcontrol(3);
  MPI_Finalize();
  return 0;
}
