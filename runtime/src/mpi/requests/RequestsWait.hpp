// What a Wait* call on requests waits for (a BlockedCall): the partners of its incomplete
// requests, as the process's request table knows them. In requests/, not control/ with the
// other blocked calls, because it reads the request table.
#pragma once

#include "mpi/control/BlockedCall.hpp"
#include "mpi/requests/PendingWork.hpp"
#include "mpi/requests/RequestTable.hpp"

#include <mpi.h>

#include <cstdint>
#include <span>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) RequestsWait final : public BlockedCall {
public:
  enum class Needs { One, All };
  // `pending`: the process's, whose deferred receives may be among `requests` (with the stamp
  // protocol whose inboxes they look at); `table`: the process's, which tracks the others.
  RequestsWait(PendingWork& pending, RequestTable& table, WaitPlace place, std::uint64_t since_vt,
               std::span<const MPI_Request> requests, Needs needs)
      : BlockedCall(place, since_vt), pending_(pending), table_(table), requests_(requests),
        needs_(needs) {}

  // Whether the completion call would return now: all of the requests complete (Needs::All),
  // or one of them (also when none is active, as MPI returns at once then). Takes no lock:
  // deciders ask it while they hold the deferred receives'.
  bool would_return() const;
  bool satisfied() const override { return would_return(); }
  // What a first look at the requests finds. It polls only requests the layer tracks or
  // defers: MPI_Request_get_status on a complete generalized request runs the program's
  // query_fn, once more than plain MPI does.
  enum class FirstLook {
    Returns,      // the call returns at once
    WaitsTracked, // it waits, and the layer tracks or defers every active request
    Untracked,    // an active request is one the layer does not (tracks_none says if all are)
  };
  FirstLook first_look() const;
  // Whether the layer's part of the wait is over: would_return, but of an AND-wait only the
  // requests the layer tracks or defers; the call then waits in MPI for the others (I/O
  // requests, which MPI_Request_get_status does not show complete: tracks_none). Only the
  // waiting thread, holding no lock of the layer's, may ask.
  bool layer_part_done() const;
  // Whether no active request is one the layer tracks or defers (I/O, generalized, partitioned
  // requests, those of unmonitored communicators): only MPI can tell when they end.
  bool tracks_none() const;
  bool keeps_clock_running() const override;

private:
  void describe_wait(deadlock::ProcessState& state, bool) const override;
  bool untracked(MPI_Request request) const;
  // Whether the call passes over `request` as MPI does a null one: an inactive persistent
  // request, which MPI_Request_get_status shows complete, in a call that needs one request.
  // Counted as complete, it sent a Waitany over it and a deferred wildcard receive straight to
  // PMPI, which waited for ever for the request only the layer completes.
  bool passed_over(MPI_Request request) const;

  PendingWork& pending_;
  RequestTable& table_;
  std::span<const MPI_Request> requests_;
  Needs needs_;
};

} // namespace vcmon::runtime::mpi
