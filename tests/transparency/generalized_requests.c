/* Generalized requests (MPI_Grequest_start) in every completion call, alone and beside a
 * receive the layer tracks, logging how often MPI ran the program's query_fn: plain MPICH runs
 * it once per completion (twice in MPI_Testall). Before (2026-11-30): the layer's first look at
 * a blocking call's requests polled MPI_Request_get_status on them, which runs query_fn once
 * more (the known difference "query_fn runs twice" of docs/transparency.md). */
#include "generalized_request.h"
#include "rank_log.h"

static int queries;

static int count_query(void* extra, MPI_Status* status) {
  (void)extra;
  ++queries;
  set_empty_status(status, MPI_UNDEFINED);
  return MPI_SUCCESS;
}

static MPI_Request completed_request(void) {
  MPI_Request request;
  MPI_Grequest_start(count_query, free_nothing, cancel_nothing, NULL, &request);
  MPI_Grequest_complete(request);
  queries = 0;
  return request;
}

enum Call { kWait, kWaitany, kWaitall, kWaitsome, kTest, kTestany, kTestall, kTestsome, kCalls };
static const char* const kNames[kCalls] = {"Wait", "Waitany", "Waitall", "Waitsome",
                                           "Test", "Testany", "Testall", "Testsome"};

/* Completes requests[0..count) with `call` until none is left active. */
static void complete(enum Call call, int count, MPI_Request* requests) {
  MPI_Status statuses[2];
  int index, flag, outcount, indices[2];
  for (int left = count; left > 0;) {
    switch (call) {
    case kWait:
      MPI_Wait(&requests[count - left], statuses);
      --left;
      break;
    case kWaitany:
      MPI_Waitany(count, requests, &index, statuses);
      --left;
      break;
    case kWaitall:
      MPI_Waitall(count, requests, statuses);
      left = 0;
      break;
    case kWaitsome:
      MPI_Waitsome(count, requests, &outcount, indices, statuses);
      left -= outcount;
      break;
    case kTest:
      MPI_Test(&requests[count - left], &flag, statuses);
      left -= flag;
      break;
    case kTestany:
      MPI_Testany(count, requests, &index, &flag, statuses);
      left -= flag;
      break;
    case kTestall:
      MPI_Testall(count, requests, &flag, statuses);
      left = flag ? 0 : left;
      break;
    case kTestsome:
      MPI_Testsome(count, requests, &outcount, indices, statuses);
      left -= outcount;
      break;
    default:
      abort();
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int other = rank ^ 1;
  for (int call = 0; call < kCalls; ++call) {
    MPI_Request alone = completed_request();
    complete((enum Call)call, 1, &alone);
    const int alone_queries = queries;

    /* Beside a receive whose message is there (the barrier comes after it): a test loop
     * would otherwise run MPI_Testall's query_fn a varying number of times. */
    int in = -1, out = rank;
    MPI_Request beside[2];
    beside[0] = completed_request();
    MPI_Irecv(&in, 1, MPI_INT, other < size ? other : MPI_PROC_NULL, call, MPI_COMM_WORLD,
              &beside[1]);
    if (other < size)
      MPI_Send(&out, 1, MPI_INT, other, call, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    complete((enum Call)call, 2, beside);
    rank_log("%s: query_fn ran %d time(s) alone, %d beside a receive (got %d)", kNames[call],
             alone_queries, queries, in);
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
