// A blocking MPI call the layer cannot poll, run as it is: before entering, the process answers
// what state requests it has, and while inside it is marked as such (UnpolledCall), so that a
// wildcard decision on its node waiting for its answer need not wait forever
// (docs/deadlock.md). One-sided synchronisation and the collective file reads use it.
#pragma once

#include "mpi/control/ControlChannel.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/layer/UnpolledCall.hpp"
#include "mpi/requests/DeferredReceives.hpp"
#include "mpi/requests/LayerWork.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "vcmon/vclock/Moment.hpp"

namespace vcmon::runtime::mpi {

template <typename Call> int unpolled(Call&& pmpi) {
  Monitor* monitor = Layer::monitor();
  if (monitor == nullptr) {
    return pmpi();
  }
  LayerContext& context = LayerContext::process();
  vclock::Moment entry;
  {
    LayerWork work(*monitor, context.pending);
    entry = vclock::Moment::now(monitor->clock());
    context.control.serve_if_due(entry);
  }
  // A partner's synchronous send may wait for a deferred receive to match.
  context.pending.deferred.before_unpolled();
  const UnpolledCall inside(entry.rt, UnpolledWait::Others);
  return pmpi();
}

} // namespace vcmon::runtime::mpi
