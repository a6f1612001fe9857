/* threads_multiple THREADS [ROUNDS]: MPI_THREAD_MULTIPLE with THREADS threads per rank, all in
 * MPI at once. The main thread first duplicates MPI_COMM_WORLD once per thread (collectives in
 * the same order everywhere); then thread t, ROUNDS times (default 10):
 *   - point-to-point with thread t of the neighbouring ranks on MPI_COMM_WORLD, tag 100 + t:
 *     MPI_Sendrecv around the ring, then MPI_Irecv + MPI_Isend + MPI_Waitall the other way;
 *   - collectives on its own duplicate: MPI_Allreduce, MPI_Bcast from root t % size,
 *     MPI_Allgather, MPI_Barrier;
 *   - wildcard receives on its own duplicate: every rank but the thread's collector (rank
 *     t % size) sends it two messages; the collector takes them with MPI_Recv(MPI_ANY_SOURCE)
 *     and MPI_Probe(MPI_ANY_SOURCE) + MPI_Recv, summing values and counting per source.
 * After joining, each rank prints per thread the sums, the counts, and how many statuses named
 * a wrong source or tag (always 0). Needs MPI_THREAD_MULTIPLE (MPICH provides it).
 *
 * Expected outcome: status 0, the same output with and without vcmon, every run (the test runs
 * the monitored build 20 times). */
#include "rank_log.h"

#include <pthread.h>

enum { kMaxThreads = 16, kP2pTagBase = 100, kWildcardTag = 7 };

struct worker {
  int thread, threads, rank, size, rounds;
  MPI_Comm comm; /* the thread's own duplicate */
  long p2p_sum, collective_sum, wildcard_sum;
  int wildcard_from[64];
  int wrong;
};

static void* work(void* argument) {
  struct worker* w = argument;
  const int right = right_of(w->rank, w->size), left = left_of(w->rank, w->size);
  const int tag = kP2pTagBase + w->thread, collector = w->thread % w->size;
  for (int round = 0; round < w->rounds; ++round) {
    /* Point-to-point with the same thread of the neighbours. */
    int out = w->rank * 1000 + w->thread * 10 + round, in = -1;
    MPI_Status status;
    MPI_Sendrecv(&out, 1, MPI_INT, right, tag, &in, 1, MPI_INT, left, tag, MPI_COMM_WORLD,
                 &status);
    w->wrong += status.MPI_SOURCE != left || status.MPI_TAG != tag;
    w->p2p_sum += in;
    MPI_Request requests[2];
    MPI_Status statuses[2];
    MPI_Irecv(&in, 1, MPI_INT, right, tag, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(&out, 1, MPI_INT, left, tag, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, statuses);
    w->wrong += statuses[0].MPI_SOURCE != right || statuses[0].MPI_TAG != tag;
    w->p2p_sum += 3 * in;

    /* Collectives on the thread's own communicator. */
    int sum = 0, root_value = round * 7 + w->rank, gathered[64];
    MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, w->comm);
    MPI_Bcast(&root_value, 1, MPI_INT, collector, w->comm);
    MPI_Allgather(&out, 1, MPI_INT, gathered, 1, MPI_INT, w->comm);
    MPI_Barrier(w->comm);
    w->collective_sum += sum + root_value;
    for (int r = 0; r < w->size; ++r)
      w->collective_sum += (long)gathered[r] * (r + 1);

    /* Wildcard receives within the thread's own communicator. */
    if (w->rank == collector) {
      for (int m = 0; m < 2 * (w->size - 1); ++m) {
        int value = -1;
        MPI_Status got;
        if (m % 2 == 0) {
          MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, kWildcardTag, w->comm, &got);
        } else {
          MPI_Probe(MPI_ANY_SOURCE, kWildcardTag, w->comm, &got);
          MPI_Recv(&value, 1, MPI_INT, got.MPI_SOURCE, kWildcardTag, w->comm, MPI_STATUS_IGNORE);
        }
        w->wrong += got.MPI_TAG != kWildcardTag || got.MPI_SOURCE == collector ||
                    value / 100000 != got.MPI_SOURCE;
        w->wildcard_sum += value;
        ++w->wildcard_from[got.MPI_SOURCE];
      }
    } else {
      for (int m = 0; m < 2; ++m) {
        const int value = w->rank * 100000 + round * 10 + m;
        MPI_Send(&value, 1, MPI_INT, collector, kWildcardTag, w->comm);
      }
    }
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int threads = argc > 1 ? atoi(argv[1]) : 4;
  const int rounds = argc > 2 ? atoi(argv[2]) : 10;
  if (provided != MPI_THREAD_MULTIPLE || threads < 1 || threads > kMaxThreads || size > 64) {
    if (rank == 0)
      fprintf(stderr, "needs MPI_THREAD_MULTIPLE (provided %d), 1-%d threads, at most 64 ranks\n",
              provided, kMaxThreads);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  struct worker workers[kMaxThreads] = {{0}};
  pthread_t ids[kMaxThreads];
  for (int t = 0; t < threads; ++t) {
    workers[t] = (struct worker){.thread = t, .threads = threads, .rank = rank, .size = size,
                                 .rounds = rounds};
    MPI_Comm_dup(MPI_COMM_WORLD, &workers[t].comm);
  }
  for (int t = 0; t < threads; ++t)
    pthread_create(&ids[t], NULL, work, &workers[t]);
  for (int t = 0; t < threads; ++t) {
    pthread_join(ids[t], NULL);
    struct worker* w = &workers[t];
    char counts[512] = "";
    size_t used = 0;
    for (int r = 0; r < size && used + 16 < sizeof counts; ++r)
      used += (size_t)snprintf(counts + used, sizeof counts - used, " %d", w->wildcard_from[r]);
    rank_log("thread %d: p2p %ld, collectives %ld, wildcard %ld from%s, wrong statuses %d", t,
             w->p2p_sum, w->collective_sum, w->wildcard_sum, counts, w->wrong);
    MPI_Comm_free(&w->comm);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
