/* completion_kinds: every completion call over every kind of request, mixed in one array.
 * For each of MPI_Test, Testany, Testsome, Testall, Wait, Waitany, Waitsome and Waitall, each
 * rank posts
 *   [0] MPI_Irecv from its left neighbour      [1] MPI_Isend to its right neighbour
 *   [2] MPI_Iallreduce on MPI_COMM_WORLD       [3] MPI_Iallreduce on MPI_COMM_SELF (MPICH
 *   [4] MPI_Ibcast on MPI_COMM_SELF                completes these at once, with a built-in
 *                                                  request handle)
 *   [5] MPI_Comm_idup of MPI_COMM_WORLD while [0]-[2] are pending
 *   [6] a started MPI_Recv_init from the left  [7] a started MPI_Send_init to the right
 *   [8] an MPI_Recv_init never started (an inactive persistent request)
 *   [9] a generalized request (MPI_Grequest_start), completed by MPI_Grequest_complete only
 *       after the completion call has seen it incomplete at least once (Test*) or after the
 *       first return (Waitany, Waitsome; Wait and Waitall: before the call)
 *   [10] MPI_REQUEST_NULL
 * and completes them all with that call, looping as the call requires. Each rank logs what
 * completed (sorted indices for the Test/Wait-any/some calls), the statuses of the point-to-point,
 * generalized, inactive and null entries, the reductions, the duplicate's comparison with
 * MPI_COMM_WORLD and a reduction over it, and how often the generalized request's free and
 * cancel callbacks ran (its query callback runs as often as MPICH polls a completed request:
 * only whether it ran is logged).
 *
 * Expected outcome: status 0, the same output with and without vcmon. Before 6c1d9d6 the
 * monitor tracked MPICH's built-in request handle of the completed MPI_COMM_SELF collectives,
 * shared by all of them, and aborted in MPI_Testsome with "MPI_Test with a null request". */
#include "rank_log.h"

#include <string.h>

enum {
  kRecv,
  kSend,
  kWorldReduce,
  kSelfReduce,
  kSelfBcast,
  kIdup,
  kPersistentRecv,
  kPersistentSend,
  kInactive,
  kGeneralized,
  kNull,
  kRequests
};
enum { kTag = 31, kPersistentTag = 32 };

static int query_calls, free_calls, cancel_calls;

static int generalized_query(void* extra, MPI_Status* status) {
  ++query_calls;
  MPI_Status_set_elements(status, MPI_INT, *(int*)extra);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = 7;
  status->MPI_TAG = 77;
  return MPI_SUCCESS;
}

static int generalized_free(void* extra) {
  (void)extra;
  ++free_calls;
  return MPI_SUCCESS;
}

static int generalized_cancel(void* extra, int complete) {
  (void)extra;
  (void)complete;
  ++cancel_calls;
  return MPI_SUCCESS;
}

struct phase {
  MPI_Request requests[kRequests];
  MPI_Request persistent[3]; /* the handles of [6]-[8], for MPI_Request_free */
  MPI_Request generalized;   /* the handle of [9], for MPI_Grequest_complete */
  int generalized_done;
  MPI_Comm duplicate;
  int incoming, outgoing, persistent_in, persistent_out, world_sum, self_sum, self_value;
  int generalized_elements, inactive_buffer;
  MPI_Status statuses[kRequests];
};

static void post(struct phase* p, int rank, int size, int round) {
  const int left = left_of(rank, size), right = right_of(rank, size);
  p->outgoing = 1000 * round + rank;
  p->persistent_out = 2000 * round + rank;
  p->self_value = 3000 * round + rank;
  p->incoming = p->persistent_in = p->world_sum = p->self_sum = p->inactive_buffer = -1;
  p->generalized_elements = round + 1;
  p->generalized_done = 0;
  for (int i = 0; i < kRequests; ++i)
    memset(&p->statuses[i], 0x5a, sizeof(MPI_Status));
  MPI_Irecv(&p->incoming, 1, MPI_INT, left, kTag, MPI_COMM_WORLD, &p->requests[kRecv]);
  MPI_Isend(&p->outgoing, 1, MPI_INT, right, kTag, MPI_COMM_WORLD, &p->requests[kSend]);
  MPI_Iallreduce(&p->outgoing, &p->world_sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                 &p->requests[kWorldReduce]);
  MPI_Iallreduce(&p->self_value, &p->self_sum, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF,
                 &p->requests[kSelfReduce]);
  MPI_Ibcast(&p->self_value, 1, MPI_INT, 0, MPI_COMM_SELF, &p->requests[kSelfBcast]);
  MPI_Comm_idup(MPI_COMM_WORLD, &p->duplicate, &p->requests[kIdup]);
  MPI_Recv_init(&p->persistent_in, 1, MPI_INT, left, kPersistentTag, MPI_COMM_WORLD,
                &p->persistent[0]);
  MPI_Send_init(&p->persistent_out, 1, MPI_INT, right, kPersistentTag, MPI_COMM_WORLD,
                &p->persistent[1]);
  MPI_Recv_init(&p->inactive_buffer, 1, MPI_INT, left, kPersistentTag + 1, MPI_COMM_WORLD,
                &p->persistent[2]);
  MPI_Startall(2, p->persistent);
  p->requests[kPersistentRecv] = p->persistent[0];
  p->requests[kPersistentSend] = p->persistent[1];
  p->requests[kInactive] = p->persistent[2];
  MPI_Grequest_start(generalized_query, generalized_free, generalized_cancel,
                     &p->generalized_elements, &p->generalized);
  p->requests[kGeneralized] = p->generalized;
  p->requests[kNull] = MPI_REQUEST_NULL;
}

static void complete_generalized(struct phase* p) {
  if (!p->generalized_done) {
    MPI_Grequest_complete(p->generalized);
    p->generalized_done = 1;
  }
}

static void log_status(const char* call, const char* what, const MPI_Status* status) {
  char text[96], label[96];
  snprintf(label, sizeof label, "%s %s", call, what);
  rank_log("%s: %s", label, status_text(status, MPI_INT, text));
}

/* Completes every request of `p` with `call`; logs what completed. */
static void complete(struct phase* p, const char* call) {
  MPI_Request* r = p->requests;
  int order[kRequests], completed = 0;
  if (strcmp(call, "Test") == 0 || strcmp(call, "Wait") == 0) {
    const int test = call[0] == 'T';
    for (int i = 0; i < kRequests; ++i) {
      int flag = 0;
      if (i == kGeneralized && !test)
        complete_generalized(p);
      while (!flag) {
        if (test) {
          MPI_Test(&r[i], &flag, &p->statuses[i]);
          if (!flag && i == kGeneralized)
            complete_generalized(p);
        } else {
          MPI_Wait(&r[i], &p->statuses[i]);
          flag = 1;
        }
      }
      order[completed++] = i;
    }
  } else if (strcmp(call, "Testall") == 0 || strcmp(call, "Waitall") == 0) {
    int flag = 0;
    if (call[0] == 'W') {
      complete_generalized(p);
      MPI_Waitall(kRequests, r, p->statuses);
      flag = 1;
    }
    while (!flag) {
      MPI_Testall(kRequests, r, &flag, p->statuses);
      complete_generalized(p);
    }
    for (int i = 0; i < kRequests; ++i)
      order[completed++] = i;
  } else if (strcmp(call, "Testany") == 0 || strcmp(call, "Waitany") == 0) {
    for (;;) {
      int index = MPI_UNDEFINED, flag = 0;
      MPI_Status status;
      if (call[0] == 'W') {
        MPI_Waitany(kRequests, r, &index, &status);
        flag = 1;
      } else {
        MPI_Testany(kRequests, r, &index, &flag, &status);
      }
      if (flag && index == MPI_UNDEFINED)
        break;
      if (flag) {
        p->statuses[index] = status;
        order[completed++] = index;
      }
      complete_generalized(p);
    }
  } else { /* Testsome, Waitsome */
    for (;;) {
      int outcount = 0, indices[kRequests];
      MPI_Status statuses[kRequests];
      if (call[0] == 'W')
        MPI_Waitsome(kRequests, r, &outcount, indices, statuses);
      else
        MPI_Testsome(kRequests, r, &outcount, indices, statuses);
      if (outcount == MPI_UNDEFINED)
        break;
      for (int k = 0; k < outcount; ++k) {
        p->statuses[indices[k]] = statuses[k];
        order[completed++] = indices[k];
      }
      complete_generalized(p);
    }
  }
  /* The indices that completed, sorted: the order is MPI's choice. */
  for (int i = 1; i < completed; ++i)
    for (int j = i; j > 0 && order[j - 1] > order[j]; --j) {
      const int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  rank_log_ints(call, order, completed);
  for (int i = 0; i < kRequests; ++i)
    if (r[i] != MPI_REQUEST_NULL && i != kPersistentRecv && i != kPersistentSend && i != kInactive)
      rank_log("%s: request %d still active", call, i);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static const char* const calls[] = {"Test", "Testany", "Testsome", "Testall",
                                      "Wait", "Waitany", "Waitsome", "Waitall"};
  for (int c = 0; c < 8; ++c) {
    struct phase p;
    post(&p, rank, size, c);
    complete(&p, calls[c]);
    const int all_indices = strcmp(calls[c], "Testall") == 0 || strcmp(calls[c], "Waitall") == 0 ||
                            strcmp(calls[c], "Test") == 0 || strcmp(calls[c], "Wait") == 0;
    log_status(calls[c], "receive", &p.statuses[kRecv]);
    log_status(calls[c], "persistent receive", &p.statuses[kPersistentRecv]);
    log_status(calls[c], "generalized", &p.statuses[kGeneralized]);
    if (all_indices) {
      log_status(calls[c], "inactive", &p.statuses[kInactive]);
      log_status(calls[c], "null", &p.statuses[kNull]);
    }
    rank_log("%s: received %d and %d, world sum %d, self sum %d, self value %d", calls[c],
             p.incoming, p.persistent_in, p.world_sum, p.self_sum, p.self_value);
    int comparison = -1, sum = 0;
    MPI_Comm_compare(MPI_COMM_WORLD, p.duplicate, &comparison);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, p.duplicate);
    rank_log("%s: duplicate %s, sum of ranks over it %d", calls[c],
             comparison == MPI_CONGRUENT ? "congruent" : "not congruent", sum);
    MPI_Comm_free(&p.duplicate);
    for (int i = 0; i < 3; ++i)
      MPI_Request_free(&p.persistent[i]);
  }
  rank_log("generalized callbacks: query %s, free %d, cancel %d",
           query_calls >= 8 ? "at least once per request" : "missed", free_calls, cancel_calls);
  rank_log_print();
  MPI_Finalize();
  return 0;
}
