/* Threads: MPI_Init_thread asking for MPI_THREAD_MULTIPLE (the level provided is printed, so a
 * monitor that lowered it would show), Query_thread, Is_thread_main, and, when MULTIPLE is
 * provided, several threads per rank exchanging around the ring at once, each on its own tag. */
#include "rank_log.h"
#include <pthread.h>

enum { thread_count = 3, rounds = 20, length = 16 };

struct exchange {
  int rank, size, tag;
  long sum;
  int wrong_sources;
};

static void* exchange_around_ring(void* argument) {
  struct exchange* x = argument;
  int outgoing[length], incoming[length];
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < length; ++i)
      outgoing[i] = x->rank * 10000 + x->tag * 100 + round + i;
    MPI_Status status;
    MPI_Sendrecv(outgoing, length, MPI_INT, right_of(x->rank, x->size), x->tag, incoming, length,
                 MPI_INT, left_of(x->rank, x->size), x->tag, MPI_COMM_WORLD, &status);
    x->wrong_sources += status.MPI_SOURCE != left_of(x->rank, x->size) || status.MPI_TAG != x->tag;
    for (int i = 0; i < length; ++i)
      x->sum += incoming[i];
  }
  return NULL;
}

static const char* level_name(int level) {
  switch (level) {
  case MPI_THREAD_SINGLE:
    return "SINGLE";
  case MPI_THREAD_FUNNELED:
    return "FUNNELED";
  case MPI_THREAD_SERIALIZED:
    return "SERIALIZED";
  case MPI_THREAD_MULTIPLE:
    return "MULTIPLE";
  default:
    return "?";
  }
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  require_ranks(2);
  int rank, size, queried, is_main;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Query_thread(&queried);
  MPI_Is_thread_main(&is_main);
  rank_log("provided %s, queried %s, main thread %d", level_name(provided), level_name(queried),
           is_main);

  if (provided == MPI_THREAD_MULTIPLE) {
    pthread_t threads[thread_count];
    struct exchange exchanges[thread_count];
    for (int t = 0; t < thread_count; ++t) {
      exchanges[t] = (struct exchange){.rank = rank, .size = size, .tag = t + 1};
      pthread_create(&threads[t], NULL, exchange_around_ring, &exchanges[t]);
    }
    for (int t = 0; t < thread_count; ++t) {
      pthread_join(threads[t], NULL);
      rank_log("thread with tag %d: %d rounds, sum %ld, wrong statuses %d", exchanges[t].tag,
               rounds, exchanges[t].sum, exchanges[t].wrong_sources);
    }
  }

  rank_log_print();
  MPI_Finalize();
  return 0;
}
