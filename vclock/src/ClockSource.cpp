#include "vcmon/vclock/ClockSource.hpp"

#if VCMON_HAVE_CYCLE_COUNTER
#include <cpuid.h>
#endif

namespace vcmon::vclock {

bool ClockSource::has_invariant_cycle_counter() {
#if VCMON_HAVE_CYCLE_COUNTER
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0x80000000u, nullptr) < 0x80000007u) {
    return false;
  }
  __cpuid(0x80000007u, eax, ebx, ecx, edx);
  return (edx & (1u << 8)) != 0;
#else
  return false;
#endif
}

ClockSource ClockSource::monotonic() {
  ClockSource source;
  source.kind_ = Kind::Monotonic;
  source.origin_ticks_ = monotonic_raw_ns();
  return source;
}

ClockSource ClockSource::calibrate(std::uint64_t calibration_ns) {
#if VCMON_HAVE_CYCLE_COUNTER
  if (!has_invariant_cycle_counter() || calibration_ns == 0) {
    return monotonic();
  }
  // Busy-wait rather than sleep: the counter and the monotonic clock are read back to back
  // at both ends, so descheduling in between does not skew the ratio.
  const std::uint64_t mono_start = monotonic_raw_ns();
  const std::uint64_t ticks_start = __rdtsc();
  std::uint64_t mono_end = mono_start;
  while (mono_end - mono_start < calibration_ns) {
    mono_end = monotonic_raw_ns();
  }
  const std::uint64_t ticks_end = __rdtsc();
  if (ticks_end <= ticks_start) {
    return monotonic();
  }
  ClockSource source;
  source.kind_ = Kind::CycleCounter;
  source.ticks_per_ns_ =
      static_cast<double>(ticks_end - ticks_start) / static_cast<double>(mono_end - mono_start);
  source.ns_per_tick_q32_ =
      static_cast<std::uint64_t>(4294967296.0 / source.ticks_per_ns_ + 0.5);
  source.origin_ticks_ = __rdtsc();
  return source;
#else
  (void)calibration_ns;
  return monotonic();
#endif
}

std::string_view ClockSource::name() const {
  return kind_ == Kind::CycleCounter ? "tsc" : "clock_gettime";
}

} // namespace vcmon::vclock
