#include "vcmon/vclock/ClockSource.hpp"

#if VCMON_HAVE_CYCLE_COUNTER
#include <cpuid.h>
#endif

namespace vcmon::vclock {

#if VCMON_HAVE_CYCLE_COUNTER
namespace {

// A monotonic-clock reading paired with the counter value at the same instant: the clock is
// read between two counter reads, and of several tries the narrowest bracket is kept.
struct ClockPairing {
  std::uint64_t mono_ns = 0;
  std::uint64_t ticks = 0;

  static ClockPairing narrowest() {
    ClockPairing best;
    std::uint64_t best_width = ~std::uint64_t{0};
    for (int attempt = 0; attempt < 32; ++attempt) {
      const std::uint64_t before = __rdtsc();
      const std::uint64_t mono = ClockSource::monotonic_raw_ns();
      const std::uint64_t after = __rdtsc();
      if (after >= before && after - before < best_width) {
        best_width = after - before;
        best = {mono, before + (after - before) / 2};
      }
    }
    return best;
  }
};

} // namespace
#endif

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
  // Busy-wait rather than sleep, and pin each end down with a bracketed pair of readings:
  // being descheduled between a counter read and a clock read would otherwise skew the
  // ratio (a 25 us preemption is 0.5% of a 5 ms calibration).
  const ClockPairing start = ClockPairing::narrowest();
  while (monotonic_raw_ns() - start.mono_ns < calibration_ns) {
  }
  const ClockPairing end = ClockPairing::narrowest();
  if (end.ticks <= start.ticks || end.mono_ns <= start.mono_ns) {
    return monotonic();
  }
  ClockSource source;
  source.kind_ = Kind::CycleCounter;
  source.ticks_per_ns_ = static_cast<double>(end.ticks - start.ticks) /
                         static_cast<double>(end.mono_ns - start.mono_ns);
  source.ns_per_tick_q32_ = static_cast<std::uint64_t>(4294967296.0 / source.ticks_per_ns_ + 0.5);
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
