#include "vcmon/vclock/VirtualClock.hpp"

namespace vcmon::vclock {

VirtualClock::VirtualClock(const ClockSource& source)
    : source_(source), origin_ns_(source.now_ns()) {}

std::uint64_t VirtualClock::real_ns() const {
  return real_at(source_.now_ns());
}

std::uint64_t VirtualClock::intrusion_ns() const {
  return intrusion_ns_.load(std::memory_order_relaxed);
}

std::uint64_t VirtualClock::virtual_ns() const {
  return virtual_at(source_.now_ns());
}

void VirtualClock::continue_from(std::uint64_t vt) {
  const std::uint64_t rt = real_ns();
  intrusion_ns_.store(vt < rt ? rt - vt : 0, std::memory_order_relaxed);
}

IntrusionScope::IntrusionScope(VirtualClock& clock, std::uint64_t constant_ns)
    : clock_(clock), constant_ns_(constant_ns), start_ns_(clock.source().now_ns()) {}

IntrusionScope::~IntrusionScope() {
  const std::uint64_t end_ns = clock_.source().now_ns();
  clock_.charge((end_ns > start_ns_ ? end_ns - start_ns_ : 0) + constant_ns_);
}

} // namespace vcmon::vclock
