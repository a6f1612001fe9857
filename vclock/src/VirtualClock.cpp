#include "vcmon/vclock/VirtualClock.hpp"

#include <algorithm>

namespace vcmon::vclock {

VirtualClock::VirtualClock(const ClockSource& source)
    : source_(source), origin_ns_(source.now_ns()) {}

std::uint64_t VirtualClock::real_ns() const {
  return real_at(source_.now_ns());
}

std::uint64_t VirtualClock::intrusion_ns() const {
  return intrusion_ns_.load(std::memory_order_relaxed) +
         caller_intrusion_ns_.load(std::memory_order_relaxed);
}

std::uint64_t VirtualClock::virtual_ns() const {
  return virtual_at(source_.now_ns());
}

void VirtualClock::charge_beside(std::uint64_t ns) {
  hold(virtual_ns());
  intrusion_ns_.fetch_add(ns, std::memory_order_relaxed);
}

void VirtualClock::advance(std::int64_t delta_ns) {
  origin_ns_.fetch_sub(static_cast<std::uint64_t>(delta_ns), std::memory_order_relaxed);
  const auto held = static_cast<std::int64_t>(held_vt_.load(std::memory_order_relaxed));
  held_vt_.store(held > 0 && held + delta_ns > 0 ? static_cast<std::uint64_t>(held + delta_ns) : 0,
                 std::memory_order_relaxed);
}

void VirtualClock::continue_from(std::uint64_t vt) {
  continue_from(vt, source_.now_ns());
}

template <typename Raise> std::uint64_t VirtualClock::raise_floor(Raise&& raised) {
  std::uint64_t floor = floor_ns_.load(std::memory_order_relaxed);
  if (!concurrent_writers_) {
    const std::uint64_t target = raised(floor);
    if (target > floor) {
      floor_ns_.store(target, std::memory_order_relaxed);
      return target;
    }
    return floor;
  }
  for (;;) {
    const std::uint64_t target = raised(floor);
    if (target <= floor) {
      return floor;
    }
    if (floor_ns_.compare_exchange_weak(floor, target, std::memory_order_relaxed)) {
      return target;
    }
  }
}

void VirtualClock::continue_from(std::uint64_t vt, std::uint64_t now_ns) {
  const std::uint64_t rt = real_at(now_ns);
  // Resumes at vt, never below the floor, never ahead of RT.
  const std::uint64_t floor =
      raise_floor([&](std::uint64_t known) { return std::min(std::max(vt, known), rt); });
  caller_intrusion_ns_.store(0, std::memory_order_relaxed);
  intrusion_ns_.store(rt - std::min(floor, rt), std::memory_order_relaxed);
  held_vt_.store(0, std::memory_order_relaxed);
}

std::uint64_t VirtualClock::show(std::uint64_t vt) {
  return raise_floor([&](std::uint64_t known) { return std::max(vt, known + 1); });
}

IntrusionScope::IntrusionScope(VirtualClock& clock, std::uint64_t constant_ns)
    : clock_(clock), constant_ns_(constant_ns), start_ns_(clock.source().now_ns()) {}

IntrusionScope::IntrusionScope(VirtualClock& clock, std::uint64_t constant_ns,
                               std::uint64_t start_ns, ChargedBy charged_by)
    : clock_(clock), constant_ns_(constant_ns), start_ns_(start_ns), charged_by_(charged_by) {}

IntrusionScope::~IntrusionScope() {
  if (!finished_) {
    finish();
  }
}

std::uint64_t IntrusionScope::finish(bool charge) {
  const std::uint64_t end_ns = clock_.source().now_ns();
  finished_ = true;
  if (charge) {
    const std::uint64_t ns = (end_ns > start_ns_ ? end_ns - start_ns_ : 0) + constant_ns_;
    if (charged_by_ == ChargedBy::Caller) {
      clock_.charge_caller(ns);
    } else {
      clock_.charge(ns);
    }
  }
  return end_ns;
}

} // namespace vcmon::vclock
