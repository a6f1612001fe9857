// Nonblocking receives from MPI_ANY_SOURCE (MPI_Irecv, MPI_Irecv_c), deferred (docs/design.md,
// "Wildcard receives in virtual order"): posted to MPI at once, such a receive takes whichever
// message reaches it first in real time, and under probe cost that is not the one the unmonitored
// program gets (Waitany over a master's wildcard receives took its workers' results in real, not
// virtual, order). Instead the program gets a generalized request, and the layer decides the
// message the way a blocking wildcard receive does (WildcardReceive: the earliest virtual arrival
// once safe), in the order the receives were posted, then posts the receive from that source and
// completes the generalized request with the real receive's status.
//
// Decisions are tried whenever the layer runs (LayerWork), in every wait loop, and in the
// completion calls; a completion call that waits decides without a horizon, any other only
// among messages whose virtual arrival has passed (as MPI_Iprobe does). A deferred receive is
// posted undecided, as MPI_ANY_SOURCE, when that must happen for MPI's matching to stay as
// the program would see it: before any other receive or probe on its communicator matches,
// before a call the layer cannot poll (UnpolledCall: a partner's synchronous send may wait
// for it to match), and at MPI_Finalize.
//
// Each process's layer has its own (PendingWork, in the LayerContext): the receives, their lock
// and their counts are members.
#pragma once

#include "core/MpiFunctionTable.hpp"
#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/layer/MessageArguments.hpp"
#include "mpi/requests/Receipt.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "mpi/wildcard/WildcardTrace.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "core/Monitor.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace vcmon::runtime::mpi {

struct __attribute__((visibility("hidden"))) DeferredReceive;

class __attribute__((visibility("hidden"))) DeferredReceives {
public:
  // The process's, with its stamp protocol, which undecided receives posted to MPI hold
  // stamps back in (StampProtocol::hold_back).
  explicit DeferredReceives(StampProtocol& stamps);
  // A receive whose generalized request MPI still holds (the program never completed it) may
  // still be queried or freed by MPI up to PMPI_Finalize, after the context is gone: it is
  // left allocated.
  ~DeferredReceives();
  DeferredReceives(const DeferredReceives&) = delete;
  DeferredReceives& operator=(const DeferredReceives&) = delete;

  // At most this many receives of one communicator wait for their decision at a time. Beyond,
  // they are posted undecided and MPI's order takes over until the backlog has completed:
  // otherwise every message for them waits in MPI's unexpected queue, which MPI searches on
  // every probe (20 000 receives posted at once took 13 s against 0.9 s unmonitored).
  static constexpr std::size_t kMaxUndecided = 256;

  // MPI_Irecv of `message` (its source MPI_ANY_SOURCE, arguments checked) into `buffer`, as
  // `posted`: hands the program a generalized request in `*request` and returns true; false
  // when it cannot be deferred (an intercommunicator, an undecided receive already posted as
  // MPI_ANY_SOURCE on the communicator, kMaxUndecided undecided there already, arguments MPI
  // rejects): the caller posts it to MPI.
  // `control`: the process's channel, over which the decision asks (and its stamp protocol);
  // `trace`: the process's, where the decision is traced.
  bool defer(Monitor& monitor, ControlChannel& control, WildcardTrace& trace, MpiFunction function,
             const ReceivePost& posted, void* buffer, const MessageArguments<MPI_Count>& message,
             MPI_Request* request);

  // The receive of an MPI_Isendrecv(_replace) whose send is posted as `send` (its packed data,
  // for _replace, in `send_copy`, kept until it completes): hands the program a generalized
  // request in `*request` that completes when both the receive and `send` have. A receive from
  // MPI_ANY_SOURCE is decided as `defer` does where it can be, else posted at once; one from a
  // named source is posted at once (the caller first calls before_matching). Returns PMPI's
  // error, if any.
  int pair(Monitor& monitor, ControlChannel& control, WildcardTrace& trace, MpiFunction function,
           const ReceivePost& posted, void* buffer, const MessageArguments<MPI_Count>& message,
           MPI_Request send, std::vector<char> send_copy, MPI_Request* request);

  // Whether any deferred receive is not finished: one load.
  bool any() const { return active_.load(std::memory_order_relaxed) != 0; }
  // Whether any deferred receive is known, finished or not (its request may still be
  // reported by a completion call): one load.
  bool exist() const { return held_.load(std::memory_order_relaxed) != 0; }

  // Decides what can be decided (`horizon`, `may_ask`: see SafeDecision::decide; only a caller
  // that waits may ask other ranks) and completes the generalized requests whose receives
  // completed.
  void progress(Monitor& monitor, StampProtocol& stamps, std::optional<std::uint64_t> horizon,
                bool may_ask);
  // What a waiting call does (WaitingWork, through the process's PendingWork): progress
  // without a horizon, asking other ranks; true when any deferred receive was unfinished.
  bool progress_waiting(Monitor& monitor, StampProtocol& stamps) {
    if (!any()) {
      return false;
    }
    progress(monitor, stamps, std::nullopt, true);
    return true;
  }

  // Another receive or probe on `shadow`'s communicator is about to match: the undecided ones
  // there are posted first, as MPI_ANY_SOURCE (MPI gives them the first messages).
  void before_matching(const Shadow& shadow);
  // Settles the undecided receives posted to MPI that have matched (StampProtocol::settle).
  void settle_matched();
  // A call the layer cannot poll is about to start: every undecided receive is posted.
  void before_unpolled() {
    if (any()) {
      post_all_undecided();
    }
  }
  void post_all_undecided();

  // The communicator of the deferred receive whose generalized request is `request`, or
  // nullptr when it is none.
  const Shadow* shadow_of(MPI_Request request);
  // The deferred receive whose generalized request is `request`, or nullptr when it is none:
  // what a completion call names it by across PMPI's completion. Once PMPI has completed it, MPI
  // may give the freed handle to another thread's new request before the call reports it
  // (MPI_THREAD_MULTIPLE), and the handle would then name that one.
  DeferredReceive* receive_of(MPI_Request request);
  // The deferred receive whose generalized request is `request`, described for the deadlock
  // check by the thread that waits for it: the earliest virtual time of a message already
  // here that can end it (a candidate in its communicator's inbox, or the message it was
  // decided for), nullopt when none is or `request` is no deferred receive's.
  std::optional<std::uint64_t> present_arrival(StampProtocol& stamps, MPI_Request request);
  // Whether a deferred receive on `shadow` is not finished (the shadow must live on).
  bool refers_to(const Shadow& shadow);

  // The program's completion call entered at `call` reported `receive` (receive_of, before
  // the call) complete, at real time `end_rt`: the receive's timing goes into the records and
  // `update`.
  void completed(Monitor& monitor, StampProtocol& stamps, DeferredReceive& receive,
                 const vclock::Moment& call, std::uint64_t end_rt, ClockUpdate& update);
  // Puts into `status`, which a completion call filled for `receive`, what MPI said of the
  // real receive: MPICH turns a generalized request's error into MPI_ERR_OTHER in the status,
  // so a truncated wildcard receive did not show MPI_ERR_TRUNCATE. `error_in_status`: the call
  // returned MPI_ERR_IN_STATUS, so the status carries the receive's error code; else its
  // MPI_ERROR is left as the call left it.
  static void report_status(const DeferredReceive& receive, MPI_Status& status,
                            bool error_in_status);
  // MPI_Cancel of a deferred receive's request at virtual time `now_vt`, before PMPI's: an
  // undecided receive is cancelled at once unless a message it would have matched by then is
  // here (then, as MPI's cancel of a matched receive, it fails and the receive completes).
  void cancel(StampProtocol& stamps, MPI_Request request, std::uint64_t now_vt);
  // MPI_Request_free of a deferred receive's request, before PMPI's.
  void free(Monitor& monitor, StampProtocol& stamps, MPI_Request request);

private:
  // Receives nobody needs any more: reported (or unseen) and their generalized request freed.
  // Dropped only here, under the lock, so that a free callback inside MPI never changes the
  // list while a loop walks it.
  void drop_finished();
  // Whether MPI accepts a receive of `message` into `buffer`. A derived datatype may be
  // uncommitted, and a null buffer wrong for the datatype, which only MPI can tell: such a
  // receive is posted on a communicator of this process alone (`checking_`, where nothing
  // matches) and cancelled. Deferred unchecked, MPI_Irecv returned success where MPI fails it,
  // and the receive later took its message and completed without data. `derived_type`: whether
  // the datatype is a derived one.
  bool accepted_by_mpi(void* buffer, const MessageArguments<MPI_Count>& message, bool derived_type);
  // Whether a new wildcard receive on `shadow` goes to MPI undecided: on an intercommunicator,
  // behind an undecided receive already posted there or a wildcard posted to MPI as it is that
  // has yet to take its stamp (MPI's order decides behind them), or as the one beyond
  // kMaxUndecided, which first posts the undecided ones there.
  bool must_post_undecided(const Shadow& shadow);
  // Whether undecided `receive` would have matched a message by virtual time `now_vt`: more of
  // its messages were sent by then than undecided receives before it may take (the lock held).
  bool matched_by(StampProtocol& stamps, const DeferredReceive& receive, std::uint64_t now_vt);
  // Posts the undecided receives on `shadow`, in the order they were posted (the lock held).
  void post_undecided_on(const Shadow& shadow);
  // Posts `receive` undecided, from MPI_ANY_SOURCE: it takes its message in MPI's order, and
  // holds back the stamps it may take until it settles.
  void post_undecided(DeferredReceive& receive);
  // Whether posted `receive`, its real receive complete, has settled its stamp (an undecided
  // one waits for those posted before it).
  bool settled(DeferredReceive& receive);
  // Hands the program `receive`'s generalized request and keeps the receive; false when MPI
  // could not start one.
  bool started(std::unique_ptr<DeferredReceive>& receive, MPI_Request* request);
  // The receive whose generalized request the program holds as `grequest`, not yet reported:
  // O(1), as completion calls ask for every request they are given.
  DeferredReceive* find(MPI_Request grequest) const;

  // In the order they were posted: a communicator's first undecided receive is decided first,
  // as MPI gives its first message to the receive posted first.
  std::vector<std::unique_ptr<DeferredReceive>> receives_;
  StampProtocol& stamps_;
  // The receives by their generalized request. An entry may outlive its receive's report (MPI
  // may then give the handle to another request, which a new receive's entry replaces); it
  // goes when the receive is dropped.
  std::unordered_map<MPI_Request, DeferredReceive*> by_request_;
  // Serialises the receives with MPI_THREAD_MULTIPLE (CallerLock).
  std::atomic_flag lock_ = ATOMIC_FLAG_INIT;
  std::atomic<unsigned> active_{0};
  std::atomic<unsigned> held_{0};
  MPI_Comm checking_ = MPI_COMM_NULL; // accepted_by_mpi's, made at its first need
};

} // namespace vcmon::runtime::mpi
