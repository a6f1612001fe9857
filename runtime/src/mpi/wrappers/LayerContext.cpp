#include "mpi/wrappers/LayerContext.hpp"

namespace vcmon::runtime::mpi {

LayerContext* LayerContext::process_ = nullptr;

LayerContext::LayerContext(Monitor& monitor)
    : mail(monitor.config().stamp_ring_slots), stamps(monitor.world_size(), mail.mail()),
      pending(stamps), control(monitor, stamps, pending), entry_reduction(control),
      wildcard_trace(monitor) {}

// After the private world: the control channel posts its receives there.
void LayerContext::open(Monitor& monitor) {
  process_ = new LayerContext(monitor);
}

void LayerContext::close() {
  delete process_;
  process_ = nullptr;
}

} // namespace vcmon::runtime::mpi
