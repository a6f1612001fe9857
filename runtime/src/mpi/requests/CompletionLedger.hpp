// Where the time of a completion call (MPI_Wait*, MPI_Test*) goes (docs/runtime.md,
// "Accounting"). The program spends it inside the completion call, so the completion call's
// statement holds it, split among the partners of the requests it completed; the call that
// posted a request (MPI_Irecv, MPI_Isend, ...) holds only its own time and its message's count
// and bytes. Summing every completed receive's wait from the call's entry would count the
// overlapping waits of a Waitall once per request: instead the call's interval
// [entry, end] is partitioned. In the order in which their partners became ready, each
// timed request is charged, as sync delay, the part of the interval it alone kept waiting;
// the rest, after the last partner was ready, is transmission of the request that completed
// last (or of the first untimed one, a send, when nothing was timed).
#pragma once

#include "core/MpiFunctionTable.hpp"
#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/requests/LayerWork.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "core/Monitor.hpp"

#include <cstdint>
#include <vector>

namespace vcmon::runtime::mpi {

class CompletionLedger {
public:
  // This thread's ledger, emptied for a new completion call at `site` (grown to the largest
  // call seen: no allocation in steady state).
  static CompletionLedger& open(tables::SiteId site);
  tables::SiteId site() const { return site_; }

  // A request whose partner (world rank, or tables::ComRecord::kCollective) was ready at
  // `ready_vt`: the waiting before is its sync delay.
  void add_timed(std::int32_t partner, std::uint64_t ready_vt) {
    entries_.push_back({partner, true, ready_vt, entries_.size()});
  }
  // A request of which nothing tells when its partner was ready (a standard send).
  void add_untimed(std::int32_t partner) {
    entries_.push_back({partner, false, 0, entries_.size()});
  }
  // A request whose partner is not there yet: charged here when it is (LayerRequests).
  void add_pending() { pending_ = true; }

  // Records the call's interval [call_vt, end_vt] at its site, one record per request
  // completed (partitioned as above), or one without a partner when it completed none.
  void charge(Monitor& monitor, std::uint64_t call_vt, std::uint64_t end_vt);

private:
  struct Entry {
    std::int32_t partner;
    bool timed;
    std::uint64_t ready_vt;
    std::size_t order; // as completed
  };
  tables::SiteId site_ = tables::kNoSite;
  bool pending_ = false;
  std::vector<Entry> entries_;
};

// The end of one completion call, as the layer's work: requests completed meanwhile add to the
// ledger (through update().ledger), and at the end of the scope the call's time is charged,
// then the clock continues (LayerWork).
class __attribute__((visibility("hidden"))) CompletionCharge {
public:
  CompletionCharge(Monitor& monitor, PendingWork& pending, MpiFunction function,
                   const vclock::Moment& call, std::uint64_t end_ns)
      : monitor_(monitor), call_vt_(call.vt),
        end_vt_(vclock::Moment::at(monitor.clock(), end_ns).vt),
        ledger_(CompletionLedger::open(monitor.comm_site(index_of(function)))),
        work_(monitor, pending, end_ns, update_) {
    update_.ledger = &ledger_;
  }
  ~CompletionCharge() {
    ledger_.charge(monitor_, call_vt_, update_.any() ? update_.latest() : end_vt_);
    if (!update_.any()) {
      // The record ends at end_vt_, and the clock goes on from there (CallTime.hpp); with an
      // update it continues from the latest completion instead.
      monitor_.clock().hold(end_vt_);
    }
  }
  CompletionCharge(const CompletionCharge&) = delete;
  CompletionCharge& operator=(const CompletionCharge&) = delete;

  ClockUpdate& update() { return update_; }

private:
  Monitor& monitor_;
  std::uint64_t call_vt_;
  std::uint64_t end_vt_;
  CompletionLedger& ledger_;
  ClockUpdate update_;
  LayerWork work_; // last: the clock continues after the charge
};

} // namespace vcmon::runtime::mpi
