// MPI_Wait*, MPI_Test*, MPI_Start, MPI_Startall, MPI_Request_free. Requests the layer does not
// track go straight to PMPI after one table lookup each.
#include "core/MpiFunctionTable.hpp"
#include "mpi/clock/CallTime.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/control/WaitPolicy.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/layer/UnpolledCall.hpp"
#include "mpi/requests/CompletionLedger.hpp"
#include "mpi/requests/CompletionOrder.hpp"
#include "mpi/requests/DeferredReceives.hpp"
#include "mpi/requests/LayerWork.hpp"
#include "mpi/requests/RequestCompletion.hpp"
#include "mpi/requests/RequestsWait.hpp"
#include "mpi/requests/TestallUnsafeRequests.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <type_traits>
#include <vector>

namespace vcmon::runtime::mpi {
namespace {

// The never-blocking twin of a blocking completion call (Wait's Test, Waitall's Testall,
// Waitany's Testany, Waitsome's Testsome): the result of the call once it would have returned,
// nothing otherwise. `nullptr` for the never-blocking calls.
template <typename Attempt>
constexpr bool has_attempt = !std::is_null_pointer_v<std::remove_cvref_t<Attempt>>;

// The result of a never-blocking completion call if it returned `rc` with `completed`, as an
// attempt gives it: it ends the wait once it completed a request or failed.
std::optional<int> attempt_result(int rc, bool completed) {
  return rc != MPI_SUCCESS || completed ? std::optional<int>(rc) : std::nullopt;
}

// `attempt` run through `run` (which passes it statuses and wraps it), or nullptr if none.
template <typename Attempt, typename Run> auto attempt_through(Attempt& attempt, Run run) {
  if constexpr (has_attempt<Attempt>) {
    return [&attempt, run] { return run(attempt); };
  } else {
    return nullptr;
  }
}

// Runs a blocking completion call once it would return, waiting in the layer meanwhile.
// `attempt`: its never-blocking twin (see has_attempt). `call`: when the call was entered, if
// the caller has read it (else read here).
template <typename Call, typename Attempt>
int wait_then(Monitor* monitor, LayerContext* context, MpiFunction function,
              std::span<const MPI_Request> requests, RequestsWait::Needs needs, Call&& pmpi,
              Attempt&& attempt, const vclock::Moment* call) {
  if (monitor == nullptr) {
    return pmpi();
  }
  const vclock::Moment entry = call != nullptr ? *call : vclock::Moment::now(monitor->clock());
  const RequestsWait wait(context->pending, context->requests,
                          {index_of(function), monitor->comm_site(index_of(function))}, entry.vt,
                          requests, needs);
  switch (wait.first_look()) {
  case RequestsWait::FirstLook::Returns:
    return pmpi();
  case RequestsWait::FirstLook::WaitsTracked: // the loop polls every request, no lookups
    return WaitPolicy::block(
        *monitor, context->control, wait, [&] { return wait.would_return(); }, pmpi);
  case RequestsWait::FirstLook::Untracked:
    break;
  }
  // Only MPI can tell when requests the layer does not track end, and MPI_Request_get_status,
  // which the layer's loop polls, does not: it never runs the poll function of ROMIO's file
  // requests (extended generalized ones), and MPI_Wait on an MPI_File_iwrite_at hung. The call's
  // never-blocking twin (Wait's Test, Waitall's Testall, Waitany's Testany, Waitsome's
  // Testsome) is polled in the layer's loop instead, where the rank answers state requests as
  // running: blocked in MPI, only a thread of its node could answer for it, and across nodes a
  // wildcard decision that had to rule it out waited for ever (an MPI_Ibarrier or an
  // MPI_Isend/MPI_Irecv pair on an MPI_Comm_idup communicator, then MPI_Wait or MPI_Waitall).
  // Beside requests the layer tracks, waiting for those alone hung a Waitany that plain MPI
  // ends with its file request, before the program sends what its other request needs.
  // MPICH's Testall mishandles generalized and partitioned requests: a Waitall over one of them
  // waits for the layer's part, then blocks in MPI (its rank answered for on its node,
  // running, as it describes itself).
  TestallUnsafeRequests& unsafe = TestallUnsafeRequests::process();
  if constexpr (has_attempt<Attempt>) {
    if (function != MpiFunction::Waitall || !unsafe.among(requests)) {
      std::optional<int> rc;
      WaitPolicy::wait_until(*monitor, context->control, wait, [&] {
        rc = attempt();
        return rc.has_value();
      });
      return *rc;
    }
  }
  if (!wait.tracks_none()) {
    WaitPolicy::wait_until(*monitor, context->control, wait,
                           [&] { return wait.layer_part_done(); });
  }
  const std::vector<MPI_Request> handles(requests.begin(), requests.end());
  const int rc = [&] {
    const UnpolledCall inside(entry.rt, UnpolledWait::Others);
    return pmpi();
  }();
  for (std::size_t i = 0; i < handles.size(); ++i) {
    if (requests[i] == MPI_REQUEST_NULL) {
      unsafe.freed(handles[i]);
    }
  }
  return rc;
}

// Runs a completion call: a blocking one once it would return, waiting in the layer
// meanwhile (its loop decides deferred receives); a nonblocking one after serving the control
// channel if due and deciding the deferred receives whose messages' virtual arrival passed.
// `call`: the call's entry, if the caller has read it. `attempt`: as for wait_then.
template <typename Call, typename Attempt>
int run_completion(Monitor* monitor, LayerContext* context, MpiFunction function,
                   std::span<const MPI_Request> requests, RequestsWait::Needs needs, bool blocking,
                   const vclock::Moment* call, Call&& pmpi, Attempt&& attempt) {
  if (blocking) {
    return wait_then(monitor, context, function, requests, needs, pmpi, attempt, call);
  }
  if (monitor != nullptr) {
    PendingWork* const pending = &context->pending;
    const vclock::Moment entry = call != nullptr ? *call : vclock::Moment::now(monitor->clock());
    context->control.serve_if_due(entry);
    if (pending->deferred.any()) {
      LayerWork work(*monitor, *pending);
      pending->deferred.progress(*monitor, pending->stamps, entry.vt, true);
    }
  }
  return pmpi();
}

// A call a program may poll in a loop without any other MPI call, waiting for another rank:
// the rank answers state requests there as a running rank (docs/pmpi.md, "Running ranks answer
// at their next send, probe, test..."), or a wildcard receive elsewhere that waits to hear from
// it, and that the other rank waits for, is never decided.
void serve_polling(Monitor& monitor) {
  LayerContext::process().control.serve_if_due(vclock::Moment::now(monitor.clock()));
}

// Reports a deferred receive whose request the call completed (DeferredReceives).
void deferred_completed(Monitor& monitor, PendingWork& pending, MpiFunction function,
                        DeferredReceive& receive, const vclock::Moment& call,
                        std::uint64_t end_ns) {
  CompletionCharge charge(monitor, pending, function, call, end_ns);
  pending.deferred.completed(monitor, pending.stamps, receive, call,
                             monitor.clock().real_at(end_ns), charge.update());
}

// One tracked request: Wait and Test. `pmpi(MPI_Status*)` sets `*done` (Wait: always).
template <typename Call>
int complete_one(MpiFunction function, MPI_Request* request, MPI_Status* status, const int* done,
                 bool blocking, Call&& pmpi) {
  Monitor* monitor = Layer::monitor();
  const auto [context, stamps, pending, table] = layer_parts(monitor);
  const MPI_Request handle = *request;
  TrackedRequest* tracked =
      monitor != nullptr && handle != MPI_REQUEST_NULL ? table->find(handle) : nullptr;
  const auto run = [&](MPI_Status* st, const vclock::Moment* call) {
    return run_completion(
        monitor, context, function, {request, 1}, RequestsWait::Needs::All, blocking, call,
        [&] {
          if (tracked == nullptr) {
            return pmpi(st);
          }
          table->hide_while_completing(tracked);
          const int rc = pmpi(st);
          table->show_if_alive(*request, tracked);
          return rc;
        },
        [&] {
          // Wait's twin, polled while the request is one the layer does not track (wait_then).
          int flag = 0;
          const int rc = PMPI_Test(request, &flag, st);
          return attempt_result(rc, flag != 0);
        });
  };
  if (tracked == nullptr) {
    DeferredReceive* const deferred =
        monitor != nullptr ? pending->deferred.receive_of(handle) : nullptr;
    if (deferred == nullptr) {
      const CallTime time(monitor, function);
      const int rc = run(status, nullptr);
      if (*request == MPI_REQUEST_NULL) {
        TestallUnsafeRequests::process().freed(handle);
      }
      return rc;
    }
    const vclock::Moment call = vclock::Moment::now(monitor->clock());
    const int rc = run(status, &call);
    if (done == nullptr || *done) {
      if (status != MPI_STATUS_IGNORE) {
        DeferredReceives::report_status(*deferred, *status, false);
      }
      deferred_completed(*monitor, *pending, function, *deferred, call,
                         monitor->clock().source().now_ns());
    } else {
      record_call_time(*monitor, function, call.vt);
    }
    return rc;
  }
  const vclock::Moment call = vclock::Moment::now(monitor->clock());
  MPI_Status local;
  MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
  const int rc = run(st, &call);
  if (done != nullptr && !*done) {
    record_call_time(*monitor, function, call.vt);
    return rc;
  }
  const std::uint64_t end_ns = monitor->clock().source().now_ns();
  // Before any poll (the charge's LayerWork) may read its handle, which MPI freed.
  pending->posted_wildcards.completed(*tracked, rc, *st);
  CompletionCharge charge(*monitor, *pending, function, call, end_ns);
  RequestCompletion::completed(*monitor, *pending, *table, *tracked, *st, rc, call,
                               monitor->clock().real_at(end_ns), charge.update());
  return rc;
}

// Several requests: Waitall/Testall/Waitany/Testany/Waitsome/Testsome. `pmpi(MPI_Status*)`
// runs the call; `each_completed(visit)` then calls visit(request index, status) for every
// request it completed. `attempt(MPI_Status*)`: a blocking call's never-blocking twin
// (has_attempt), else nullptr.
template <typename Call, typename EachCompleted, typename Attempt = std::nullptr_t>
int complete_many(MpiFunction function, int count, MPI_Request requests[], MPI_Status* statuses,
                  bool blocking, RequestsWait::Needs needs, Call&& pmpi,
                  EachCompleted&& each_completed, Attempt&& attempt = nullptr) {
  Monitor* monitor = Layer::monitor();
  const auto [context, stamps, pending, table] = layer_parts(monitor);
  const std::span<const MPI_Request> all(requests, count > 0 ? static_cast<std::size_t>(count) : 0);
  CompletionBatch& batch = CompletionBatch::for_this_thread();
  if (monitor == nullptr || count <= 0 || !batch.collect(*table, pending->deferred, all)) {
    // No tracked request here: nothing to hide. The batch may still hold an earlier call's
    // requests, which are not this call's (an empty array has no handles to show them by).
    const CallTime time(monitor, function);
    return run_completion(
        monitor, context, function, all, needs, blocking, nullptr, [&] { return pmpi(statuses); },
        attempt_through(attempt, [&](auto& completion) { return completion(statuses); }));
  }
  const vclock::Moment call = vclock::Moment::now(monitor->clock());
  MPI_Status* const st = batch.statuses(statuses, count);
  // Around each PMPI call that may complete the batch's requests.
  const auto completing = [&](auto&& completion) {
    batch.hide_while_completing(*table);
    const auto result = completion(st);
    batch.show_if_alive(*table, requests);
    return result;
  };
  const int rc = run_completion(
      monitor, context, function, all, needs, blocking, &call, [&] { return completing(pmpi); },
      attempt_through(attempt, completing));
  const std::uint64_t end_ns = monitor->clock().source().now_ns();
  const std::uint64_t end_rt = monitor->clock().real_at(end_ns);
  // MPI_ERR_IN_STATUS: MPI stopped at a failed request, and says of those it did not complete
  // MPI_ERR_PENDING; they stay active, and so does what the layer knows of them.
  const auto still_pending = [&](const MPI_Status& status) {
    int error_class = MPI_SUCCESS;
    if (rc == MPI_ERR_IN_STATUS) {
      PMPI_Error_class(status.MPI_ERROR, &error_class);
    }
    return error_class == MPI_ERR_PENDING;
  };
  // MPI_ERR_IN_STATUS: each status carries its own code; else they all share rc.
  const auto error_of = [&](const MPI_Status& status) {
    return rc == MPI_ERR_IN_STATUS ? status.MPI_ERROR : rc;
  };
  // Every wildcard receive posted as it is that the call completed settles before any poll
  // (the charge's LayerWork, an earlier request's stamp) may read its handle, which MPI freed:
  // all are noted first, as one may wait for another to settle.
  const auto each_tracked_completed = [&](auto&& visit) {
    each_completed(st, [&](int index, MPI_Status& status) {
      if (TrackedRequest* tracked = batch.tracked(index);
          tracked != nullptr && !still_pending(status)) {
        visit(*tracked, error_of(status), status);
      }
    });
  };
  each_tracked_completed([&](TrackedRequest& tracked, int error, const MPI_Status& status) {
    pending->posted_wildcards.matched(tracked, error, status);
  });
  each_tracked_completed([&](TrackedRequest& tracked, int error, const MPI_Status& status) {
    pending->posted_wildcards.completed(tracked, error, status);
  });
  CompletionCharge charge(*monitor, *pending, function, call, end_ns);
  ClockUpdate& update = charge.update();
  each_completed(st, [&](int index, MPI_Status& status) {
    if (DeferredReceive* const deferred = batch.deferred(index)) {
      if (still_pending(status)) {
        return; // its message may have come: it is reported when it completes
      }
      DeferredReceives::report_status(*deferred, status, rc == MPI_ERR_IN_STATUS);
      pending->deferred.completed(*monitor, *stamps, *deferred, call, end_rt, update);
    } else if (TrackedRequest* tracked = batch.tracked(index)) {
      if (!still_pending(status)) {
        RequestCompletion::completed(*monitor, *pending, *table, *tracked, status, error_of(status),
                                     call, end_rt, update);
      }
    } else if (batch.untracked(index)) {
      // Waiting for it was the program's own time: the clock runs on to its completion (as
      // when the call completes untracked requests alone), which is what this rank answered
      // meanwhile (RequestsWait::keeps_clock_running).
      update.include(monitor->clock().virtual_at(end_ns));
    }
  });
  return rc;
}

// Waitall/Testall: every request, in order, when `*done`.
auto all_of(int count, const int* done) {
  return [count, done](MPI_Status* st, auto&& visit) {
    if (done == nullptr || *done) {
      for (int i = 0; i < count; ++i) {
        visit(i, st[i]);
      }
    }
  };
}

// Waitany/Testany: the one at `*index`.
auto the_one_at(const int* index) {
  return [index](MPI_Status* st, auto&& visit) {
    if (*index != MPI_UNDEFINED) {
      visit(*index, *st);
    }
  };
}

// Waitsome/Testsome: statuses[j] belongs to indices[j].
auto those_at(const int* outcount, const int* indices) {
  return [outcount, indices](MPI_Status* st, auto&& visit) {
    if (*outcount != MPI_UNDEFINED) {
      for (int j = 0; j < *outcount; ++j) {
        visit(indices[j], st[j]);
      }
    }
  };
}

// Waitany and Testany (`flag`: nullptr for Waitany) in the order of virtual arrival when it
// applies, else as PMPI completes.
template <typename Call, typename Attempt>
int complete_any(MpiFunction function, int count, MPI_Request requests[], int* index, int* flag,
                 MPI_Status* status, Call&& pmpi, Attempt&& attempt) {
  if (Monitor* monitor = Layer::monitor(); monitor != nullptr && count > 0) {
    LayerContext& context = LayerContext::process();
    if (const std::optional<int> rc = CompletionOrder::complete_first(
            *monitor, context.pending, context.requests, context.control, context.wildcard_trace,
            function, {requests, static_cast<std::size_t>(count)}, index, flag, status)) {
      return *rc;
    }
  }
  return complete_many(function, count, requests, status, flag == nullptr, RequestsWait::Needs::One,
                       pmpi, the_one_at(index), attempt);
}

// Waitsome and Testsome: one request per call when the order applies.
template <typename Call, typename Attempt>
int complete_some(MpiFunction function, int incount, MPI_Request requests[], int* outcount,
                  int indices[], MPI_Status statuses[], bool blocking, Call&& pmpi,
                  Attempt&& attempt) {
  if (Monitor* monitor = Layer::monitor(); monitor != nullptr && incount > 0) {
    int index = MPI_UNDEFINED;
    int flag = 0;
    MPI_Status* const status = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : statuses;
    LayerContext& context = LayerContext::process();
    if (const std::optional<int> rc = CompletionOrder::complete_first(
            *monitor, context.pending, context.requests, context.control, context.wildcard_trace,
            function, {requests, static_cast<std::size_t>(incount)}, &index,
            blocking ? nullptr : &flag, status)) {
      *outcount = index == MPI_UNDEFINED ? 0 : 1;
      indices[0] = index;
      // As Waitsome and Testsome report a request that failed: its code in its status.
      if (*rc != MPI_SUCCESS && index != MPI_UNDEFINED) {
        if (status != MPI_STATUS_IGNORE) {
          status->MPI_ERROR = *rc;
        }
        return MPI_ERR_IN_STATUS;
      }
      return *rc;
    }
  }
  return complete_many(function, incount, requests, statuses, blocking, RequestsWait::Needs::One,
                       pmpi, those_at(outcount, indices), attempt);
}

} // namespace
} // namespace vcmon::runtime::mpi

using namespace vcmon::runtime;
using namespace vcmon::runtime::mpi;

extern "C" int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return complete_one(MpiFunction::Wait, request, status, nullptr, true,
                      [&](MPI_Status* st) { return PMPI_Wait(request, st); });
}

extern "C" int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return complete_one(MpiFunction::Test, request, status, flag, false,
                      [&](MPI_Status* st) { return PMPI_Test(request, flag, st); });
}

extern "C" int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return complete_many(
      MpiFunction::Waitall, count, requests, statuses, true, RequestsWait::Needs::All,
      [&](MPI_Status* st) { return PMPI_Waitall(count, requests, st); }, all_of(count, nullptr),
      [&](MPI_Status* st) {
        int flag = 0;
        const int rc = PMPI_Testall(count, requests, &flag, st);
        return attempt_result(rc, flag != 0);
      });
}

extern "C" int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  return complete_many(
      MpiFunction::Testall, count, requests, statuses, false, RequestsWait::Needs::All,
      [&](MPI_Status* st) { return PMPI_Testall(count, requests, flag, st); }, all_of(count, flag));
}

extern "C" int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return complete_any(
      MpiFunction::Waitany, count, requests, index, nullptr, status,
      [&](MPI_Status* st) { return PMPI_Waitany(count, requests, index, st); },
      [&](MPI_Status* st) {
        int flag = 0;
        const int rc = PMPI_Testany(count, requests, index, &flag, st);
        return attempt_result(rc, flag != 0);
      });
}

extern "C" int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag,
                           MPI_Status* status) {
  return complete_any(
      MpiFunction::Testany, count, requests, index, flag, status,
      [&](MPI_Status* st) { return PMPI_Testany(count, requests, index, flag, st); }, nullptr);
}

extern "C" int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses[]) {
  return complete_some(
      MpiFunction::Waitsome, incount, requests, outcount, indices, statuses, true,
      [&](MPI_Status* st) { return PMPI_Waitsome(incount, requests, outcount, indices, st); },
      [&](MPI_Status* st) {
        const int rc = PMPI_Testsome(incount, requests, outcount, indices, st);
        return attempt_result(rc, *outcount != 0);
      });
}

extern "C" int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses[]) {
  return complete_some(
      MpiFunction::Testsome, incount, requests, outcount, indices, statuses, false,
      [&](MPI_Status* st) { return PMPI_Testsome(incount, requests, outcount, indices, st); },
      nullptr);
}

extern "C" int MPI_Start(MPI_Request* request) {
  Monitor* monitor = Layer::monitor();
  const auto [context, stamps, pending, table] = layer_parts(monitor);
  const CallTime time(monitor, MpiFunction::Start);
  TrackedRequest* tracked = monitor != nullptr ? table->find(*request) : nullptr;
  if (tracked == nullptr) {
    return PMPI_Start(request);
  }
  {
    LayerWork work(*monitor, *pending);
    RequestCompletion::starting(*monitor, *pending, context->entry_reduction, *request, *tracked);
  }
  const int rc = PMPI_Start(request);
  if (rc != MPI_SUCCESS) {
    LayerWork work(*monitor, *pending);
    RequestCompletion::start_failed(*pending, *tracked);
  }
  return rc;
}

extern "C" int MPI_Startall(int count, MPI_Request requests[]) {
  Monitor* monitor = Layer::monitor();
  const auto [context, stamps, pending, table] = layer_parts(monitor);
  const CallTime time(monitor, MpiFunction::Startall);
  CompletionBatch& batch = CompletionBatch::for_this_thread();
  if (monitor == nullptr || count <= 0 ||
      !batch.collect(*table, pending->deferred, {requests, static_cast<std::size_t>(count)})) {
    return PMPI_Startall(count, requests);
  }
  {
    LayerWork work(*monitor, *pending);
    for (int i = 0; i < count; ++i) {
      if (TrackedRequest* tracked = batch.tracked(i)) {
        RequestCompletion::starting(*monitor, *pending, context->entry_reduction, requests[i],
                                    *tracked);
      }
    }
  }
  const int rc = PMPI_Startall(count, requests);
  if (rc != MPI_SUCCESS) {
    LayerWork work(*monitor, *pending);
    for (int i = 0; i < count; ++i) {
      if (TrackedRequest* tracked = batch.tracked(i)) {
        RequestCompletion::start_failed(*pending, *tracked);
      }
    }
  }
  return rc;
}

extern "C" int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  Monitor* monitor = Layer::monitor();
  PendingWork* const pending = monitor != nullptr ? &process_pending() : nullptr;
  const CallTime time(monitor, MpiFunction::Request_get_status);
  if (monitor != nullptr) {
    serve_polling(*monitor);
    if (pending->deferred.any() && pending->deferred.shadow_of(request)) {
      LayerWork work(*monitor, *pending);
      pending->deferred.progress(*monitor, pending->stamps, monitor->clock().virtual_ns(), true);
    }
  }
  return PMPI_Request_get_status(request, flag, status);
}

// Partitioned communication is not monitored (docs/pmpi.md), but a loop polling MPI_Parrived
// is a running rank that must answer, as at MPI_Test.
extern "C" int MPI_Parrived(MPI_Request request, int partition, int* flag) {
  Monitor* monitor = Layer::monitor();
  const CallTime time(monitor, MpiFunction::Parrived);
  if (monitor != nullptr) {
    serve_polling(*monitor);
  }
  return PMPI_Parrived(request, partition, flag);
}

extern "C" int MPI_Cancel(MPI_Request* request) {
  Monitor* monitor = Layer::monitor();
  PendingWork* const pending = monitor != nullptr ? &process_pending() : nullptr;
  const CallTime time(monitor, MpiFunction::Cancel);
  if (monitor != nullptr && pending->deferred.shadow_of(*request) != nullptr) {
    LayerWork work(*monitor, *pending);
    pending->deferred.cancel(pending->stamps, *request, monitor->clock().virtual_ns());
  }
  return PMPI_Cancel(request);
}

extern "C" int MPI_Request_free(MPI_Request* request) {
  Monitor* monitor = Layer::monitor();
  const auto [context, stamps, pending, table] = layer_parts(monitor);
  const CallTime time(monitor, MpiFunction::Request_free);
  const MPI_Request handle = *request;
  if (monitor != nullptr && pending->deferred.shadow_of(handle) != nullptr) {
    LayerWork work(*monitor, *pending);
    pending->deferred.free(*monitor, *stamps, handle);
    return PMPI_Request_free(request);
  }
  TrackedRequest* tracked =
      monitor != nullptr && handle != MPI_REQUEST_NULL ? table->find(handle) : nullptr;
  if (tracked == nullptr) {
    const int rc = PMPI_Request_free(request);
    if (rc == MPI_SUCCESS) {
      TestallUnsafeRequests::process().freed(handle);
    }
    return rc;
  }
  if (tracked->kind == TrackedRequest::Kind::Receive) {
    LayerWork work(*monitor, *pending);
    pending->orphans.add(*table, handle);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
  }
  // Looked at no more once MPI may have freed it (the LayerWork below polls).
  pending->posted_wildcards.forget(*tracked);
  table->hide_while_completing(tracked);
  const int rc = PMPI_Request_free(request);
  table->show_if_alive(*request, tracked);
  if (rc == MPI_SUCCESS) {
    LayerWork work(*monitor, *pending);
    RequestCompletion::freed(*pending, *table, *tracked);
  }
  return rc;
}
