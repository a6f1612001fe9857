// The layer's own work around one PMPI call, charged to intrusion (docs/runtime.md, "Virtual time":
// what the PMPI layer charges): measured, plus the core's constant for what cannot be measured from
// inside. Each scope first applies deferred corrections whose requests completed meanwhile, and
// lets the query interface count this thread's open activations once after each live publication
// (docs/query.md).
//
// Every clock read costs several ns and a small message passes several scopes, so a scope can
// start at a reading its caller already took, and can end by continuing the clock after the
// call (ClockUpdate) at the same reading that ends it.
#pragma once

#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/requests/PendingWork.hpp"

#include "core/Monitor.hpp"
#include "query/QueryHooks.hpp"

#include "vcmon/vclock/VirtualClock.hpp"

namespace vcmon::runtime::mpi {

class LayerWork {
public:
  LayerWork(Monitor& monitor, PendingWork& pending)
      : LayerWork(monitor, pending, monitor.clock().source().now_ns()) {}
  // Starting at `start_ns`, a reading of the monitor's clock source.
  LayerWork(Monitor& monitor, PendingWork& pending, std::uint64_t start_ns)
      : scope_(monitor.clock(), monitor.action_cost_ns(), start_ns,
               vclock::IntrusionScope::ChargedBy::Caller) {
    enter(monitor, pending);
  }
  // Starting at `start_ns` and ending by applying `update` (once the scope's work filled it).
  LayerWork(Monitor& monitor, PendingWork& pending, std::uint64_t start_ns,
            const ClockUpdate& update)
      : LayerWork(monitor, pending, start_ns) {
    update_ = &update;
  }
  ~LayerWork() {
    if (update_ != nullptr) {
      // Continuing the clock re-derives the intrusion: a charge would be overwritten.
      update_->apply(scope_.clock(), scope_.finish(!update_->any()));
    }
  }
  LayerWork(const LayerWork&) = delete;
  LayerWork& operator=(const LayerWork&) = delete;

  // What every scope does first; true when that may have moved the clock (a reading taken
  // before it is then stale). For work whose cost continue_from re-derives anyway.
  static bool enter(Monitor& monitor, PendingWork& pending) {
    const bool moved = pending.layer_requests.poll(monitor);
    pending.orphans.poll(monitor, pending.stamps, pending.posted_wildcards);
    if (pending.deferred.any()) {
      pending.deferred.progress(monitor, pending.stamps, std::nullopt, false);
    }
    query::settle_if_published(monitor);
    return moved;
  }

private:
  vclock::IntrusionScope scope_;
  const ClockUpdate* update_ = nullptr;
};

} // namespace vcmon::runtime::mpi
