/* Completion calls: every rank receives from every other, completing the receives with Waitany,
 * Waitsome, Testsome, Testany and Testall (the order of completion is open, so outcomes are
 * logged sorted), Waitall with MPI_STATUSES_IGNORE, and the special results for empty arrays
 * and for arrays of null requests. */
#include "rank_log.h"
#include <sched.h>

enum { length = 3 };

struct exchange {
  int size;
  int* incoming;         /* length ints per source */
  int* outgoing;         /* length ints per destination */
  MPI_Request* receives; /* one per source; MPI_REQUEST_NULL for self */
  MPI_Request* sends;
};

/* Posts a receive from and a send to every other rank, with this round's tag. */
static void post(struct exchange* x, int rank, int tag) {
  for (int peer = 0; peer < x->size; ++peer) {
    x->receives[peer] = x->sends[peer] = MPI_REQUEST_NULL;
    if (peer == rank)
      continue;
    for (int i = 0; i < length; ++i)
      x->outgoing[peer * length + i] = tag * 1000 + rank * 100 + peer * 10 + i;
    MPI_Irecv(&x->incoming[peer * length], length, MPI_INT, peer, tag, MPI_COMM_WORLD,
              &x->receives[peer]);
    MPI_Isend(&x->outgoing[peer * length], length, MPI_INT, peer, tag, MPI_COMM_WORLD,
              &x->sends[peer]);
  }
}

static void add_outcome(struct line_set* outcomes, const char* call, const struct exchange* x,
                        int index, const MPI_Status* status) {
  char text[96];
  line_set_add(outcomes, "%s index %d: %s first value %d", call, index,
               status_text(status, MPI_INT, text), x->incoming[index * length]);
}

static void finish_sends(struct exchange* x) {
  MPI_Status* statuses = malloc(sizeof(MPI_Status) * (size_t)x->size);
  MPI_Waitall(x->size, x->sends, statuses);
  free(statuses);
}

static void with_waitany(struct exchange* x, int pending) {
  struct line_set outcomes = {0};
  for (int i = 0; i < pending; ++i) {
    int index;
    MPI_Status status;
    MPI_Waitany(x->size, x->receives, &index, &status);
    add_outcome(&outcomes, "Waitany", x, index, &status);
  }
  line_set_log_sorted(&outcomes);
}

static void with_waitsome_or_testsome(struct exchange* x, int pending, int test) {
  struct line_set outcomes = {0};
  int* indices = malloc(sizeof(int) * (size_t)x->size);
  MPI_Status* statuses = malloc(sizeof(MPI_Status) * (size_t)x->size);
  while (pending > 0) {
    int completed;
    if (test)
      MPI_Testsome(x->size, x->receives, &completed, indices, statuses);
    else
      MPI_Waitsome(x->size, x->receives, &completed, indices, statuses);
    for (int i = 0; i < completed; ++i)
      add_outcome(&outcomes, test ? "Testsome" : "Waitsome", x, indices[i], &statuses[i]);
    pending -= completed;
    if (completed == 0)
      sched_yield();
  }
  line_set_log_sorted(&outcomes);
  free(indices);
  free(statuses);
}

static void with_testany(struct exchange* x, int pending) {
  struct line_set outcomes = {0};
  while (pending > 0) {
    int index, flag;
    MPI_Status status;
    MPI_Testany(x->size, x->receives, &index, &flag, &status);
    if (flag) {
      add_outcome(&outcomes, "Testany", x, index, &status);
      --pending;
    } else {
      sched_yield();
    }
  }
  line_set_log_sorted(&outcomes);
}

static void with_testall(struct exchange* x) {
  MPI_Status* statuses = malloc(sizeof(MPI_Status) * (size_t)x->size);
  int flag = 0;
  while (!flag) {
    MPI_Testall(x->size, x->receives, &flag, statuses);
    if (!flag)
      sched_yield();
  }
  struct line_set outcomes = {0};
  for (int peer = 0; peer < x->size; ++peer)
    add_outcome(&outcomes, "Testall", x, peer, &statuses[peer]);
  line_set_log_sorted(&outcomes);
  free(statuses);
}

/* GCC 12 takes MPI_STATUSES_IGNORE, a sentinel pointer, for an array of size 0. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
static void with_waitall_ignoring_statuses(struct exchange* x) {
  MPI_Waitall(x->size, x->receives, MPI_STATUSES_IGNORE);
  rank_log_ints("Waitall ignoring statuses", x->incoming, x->size * length);
}

/* Empty arrays (count 0, no array at all), right after calls that completed tracked requests:
 * the monitor once ran its bookkeeping of the previous call around them and crashed. */
static void empty_arrays(void) {
  int index = -2, flag = -2, count = -2;
  MPI_Status status;
  rank_log("Waitall of none: rc %d", MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE));
  rank_log("Testall of none: rc %d", MPI_Testall(0, NULL, &flag, MPI_STATUSES_IGNORE));
  rank_log("Testall of none: flag %d", flag);
  rank_log("Waitany of none: rc %d", MPI_Waitany(0, NULL, &index, &status));
  rank_log("Waitany of none: index undefined %d", index == MPI_UNDEFINED);
  rank_log("Testany of none: rc %d", MPI_Testany(0, NULL, &index, &flag, &status));
  rank_log("Testany of none: flag %d, index undefined %d", flag, index == MPI_UNDEFINED);
  rank_log("Waitsome of none: rc %d", MPI_Waitsome(0, NULL, &count, NULL, MPI_STATUSES_IGNORE));
  rank_log("Waitsome of none: count undefined %d", count == MPI_UNDEFINED);
  rank_log("Testsome of none: rc %d", MPI_Testsome(0, NULL, &count, NULL, MPI_STATUSES_IGNORE));
  rank_log("Testsome of none: count undefined %d", count == MPI_UNDEFINED);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

static void null_requests(void) {
  MPI_Request nulls[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status status, statuses[3];
  int index, flag, count, indices[3];
  MPI_Waitany(3, nulls, &index, &status);
  rank_log("Waitany on null requests: index undefined %d", index == MPI_UNDEFINED);
  rank_log_status("Waitany on null requests", &status, MPI_INT);
  MPI_Testany(3, nulls, &index, &flag, &status);
  rank_log("Testany on null requests: flag %d, index undefined %d", flag, index == MPI_UNDEFINED);
  MPI_Waitsome(3, nulls, &count, indices, statuses);
  rank_log("Waitsome on null requests: count undefined %d", count == MPI_UNDEFINED);
  MPI_Testsome(3, nulls, &count, indices, statuses);
  rank_log("Testsome on null requests: count undefined %d", count == MPI_UNDEFINED);
  MPI_Testall(3, nulls, &flag, statuses);
  rank_log("Testall on null requests: flag %d", flag);
  rank_log_status("Testall on null requests, status 0", &statuses[0], MPI_INT);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct exchange x = {.size = size,
                       .incoming = calloc((size_t)(size * length), sizeof(int)),
                       .outgoing = calloc((size_t)(size * length), sizeof(int)),
                       .receives = malloc(sizeof(MPI_Request) * (size_t)size),
                       .sends = malloc(sizeof(MPI_Request) * (size_t)size)};
  const int others = size - 1;

  post(&x, rank, 1);
  with_waitany(&x, others);
  finish_sends(&x);
  post(&x, rank, 2);
  with_waitsome_or_testsome(&x, others, 0);
  finish_sends(&x);
  post(&x, rank, 3);
  with_waitsome_or_testsome(&x, others, 1);
  finish_sends(&x);
  post(&x, rank, 4);
  with_testany(&x, others);
  finish_sends(&x);
  post(&x, rank, 5);
  with_testall(&x);
  finish_sends(&x);
  post(&x, rank, 6);
  with_waitall_ignoring_statuses(&x);
  empty_arrays();
  finish_sends(&x);
  null_requests();

  free(x.incoming);
  free(x.outgoing);
  free(x.receives);
  free(x.sends);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
