// Receives from MPI_ANY_SOURCE that the program's own requests post to MPI as they are (a started
// persistent MPI_Recv_init, a nonblocking receive on an intercommunicator, one posted behind a
// receive posted undecided or beyond DeferredReceives::kMaxUndecided). MPI gives each the first
// message that matches, before any receive posted after it; until it says which, the receive
// holds back the stamps it may take (StampProtocol::hold_back), as a deferred receive posted
// undecided does. Left to take its stamp at completion instead, a receive from a named source
// posted after it claimed the stamp of the message MPI gave the wildcard, and the wildcard's
// completion waited for a stamp its sender sent only later: `Recv_init(MPI_ANY_SOURCE)`, `Start`,
// `Irecv` from rank 1, `Wait` on the first hung in every run (conformance.posted_wildcard).
//
// Each settles (StampProtocol::settle) when a completion call reports it, from the status MPI
// returned, or earlier, as soon as a receive waits for a stamp it holds back: from
// PMPI_Request_get_status, which neither completes nor frees the program's request. Only while one
// thread at a time calls MPI: with MPI_THREAD_MULTIPLE another thread may complete and free the
// request while this one reads it, and such receives take their stamp at completion, unmarked, as
// before (docs/pmpi.md, "Stamps").
#pragma once

#include "mpi/requests/RequestTable.hpp"
#include "mpi/stamps/StampProtocol.hpp"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) PostedWildcards {
public:
  explicit PostedWildcards(StampProtocol& stamps) : stamps_(stamps) {}
  PostedWildcards(const PostedWildcards&) = delete;
  PostedWildcards& operator=(const PostedWildcards&) = delete;

  // `request`, the program's `handle` (a tracked receive from MPI_ANY_SOURCE), is about to be
  // posted to MPI as it is: from now on it holds back the stamps it may take. Nothing with
  // MPI_THREAD_MULTIPLE.
  void posting(MPI_Request handle, TrackedRequest& request);
  // `request` is no longer posted (its start failed) or its handle is about to go (the program
  // frees it): it is looked at no more. Its stamp is the caller's to give up.
  void forget(TrackedRequest& request) { remove(request); }
  // A completion call reported `request` complete with `error` and `status`: MPI freed its
  // handle, which is looked at no more; what MPI said stands in for it. A call that completed
  // several notes them all before it settles any (completed): settling one waits for those
  // posted before it, which it may have completed too, and polling a freed handle read another
  // request's status, or garbage (conformance.posted_wildcard.waitall-reversed). Nothing when it
  // was never marked.
  void matched(TrackedRequest& request, int error, const MPI_Status& status);
  // Out of the entries, `request` settles, once the receives from MPI_ANY_SOURCE posted before it
  // that may have taken the same messages have. Its stamp is then claimed (StampProtocol::finish),
  // or none when it consumed no message. Nothing when it settled already or was never marked.
  // Called before anything may poll (a LayerWork scope, a stamp's wait).
  void completed(TrackedRequest& request, int error, const MPI_Status& status);
  // Settles the marked receives MPI has matched (StampProtocol::Settler, through PendingWork);
  // true when one settled.
  bool settle_matched();

private:
  struct Entry {
    MPI_Request handle;
    TrackedRequest* request;
    // Once MPI said it completed (a completion call, matched, after which the handle is gone;
    // or PMPI_Request_get_status): the source of the message it took, if any, and its tag.
    bool known = false;
    std::optional<int> source;
    int tag = MPI_ANY_TAG;
  };

  void remove(TrackedRequest& request);

  // How many entries one settle_matched looks at.
  static constexpr std::size_t kPerRound = 16;

  StampProtocol& stamps_;
  // Only touched by the one thread in MPI (see above). TrackedRequest::wildcard_slot is each
  // request's index here: removal is O(1), as thousands may be posted at once.
  std::vector<Entry> entries_;
  std::size_t next_ = 0; // where the next settle_matched starts
  // settle_matched does not nest: settling polls, and the poll settles the others.
  bool settling_ = false;
};

} // namespace vcmon::runtime::mpi
