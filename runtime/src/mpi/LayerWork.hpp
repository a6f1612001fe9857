// The layer's own work around one PMPI call, charged to intrusion (DESIGN.md §5): measured,
// plus the core's constant for what cannot be measured from inside. Each scope first applies
// deferred corrections whose requests completed meanwhile, and lets the query interface count
// this thread's open activations once after each live publication (docs/query.md).
#pragma once

#include "mpi/LayerRequests.hpp"

#include "core/Monitor.hpp"
#include "query/QueryHooks.hpp"

#include "vcmon/vclock/VirtualClock.hpp"

namespace vcmon::runtime::mpi {

class LayerWork {
public:
  explicit LayerWork(Monitor& monitor) : scope_(monitor.clock(), monitor.action_cost_ns()) {
    LayerRequests::poll(monitor);
    query::settle_if_published(monitor);
  }

private:
  vclock::IntrusionScope scope_;
};

} // namespace vcmon::runtime::mpi
