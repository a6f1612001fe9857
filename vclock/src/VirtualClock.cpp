#include "vcmon/vclock/VirtualClock.hpp"

#include <algorithm>

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

void VirtualClock::charge_beside(std::uint64_t ns) {
  const std::uint64_t rt = real_ns();
  std::uint64_t intrusion = intrusion_ns_.load(std::memory_order_relaxed);
  for (;;) {
    // The most I may grow before VT = RT − I passes below the floor.
    const std::uint64_t room = rt - std::min(rt, floor_ns() + intrusion);
    if (room == 0 || intrusion_ns_.compare_exchange_weak(intrusion, intrusion + std::min(ns, room),
                                                         std::memory_order_relaxed)) {
      return;
    }
  }
}

void VirtualClock::continue_from(std::uint64_t vt) {
  const std::uint64_t rt = real_ns();
  std::uint64_t floor = floor_ns_.load(std::memory_order_relaxed);
  std::uint64_t target = 0;
  do {
    target = std::min(std::max(vt, floor), rt);
  } while (floor < target &&
           !floor_ns_.compare_exchange_weak(floor, target, std::memory_order_relaxed));
  intrusion_ns_.store(rt - target, std::memory_order_relaxed);
}

std::uint64_t VirtualClock::show(std::uint64_t vt) {
  std::uint64_t floor = floor_ns_.load(std::memory_order_relaxed);
  for (;;) {
    const std::uint64_t shown = std::max(vt, floor + 1);
    if (floor_ns_.compare_exchange_weak(floor, shown, std::memory_order_relaxed)) {
      return shown;
    }
  }
}

IntrusionScope::IntrusionScope(VirtualClock& clock, std::uint64_t constant_ns)
    : clock_(clock), constant_ns_(constant_ns), start_ns_(clock.source().now_ns()) {}

IntrusionScope::~IntrusionScope() {
  const std::uint64_t end_ns = clock_.source().now_ns();
  clock_.charge((end_ns > start_ns_ ? end_ns - start_ns_ : 0) + constant_ns_);
}

} // namespace vcmon::vclock
