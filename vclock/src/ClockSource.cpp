#include "vcmon/vclock/ClockSource.hpp"

#if VCMON_HAVE_CYCLE_COUNTER
#include <cpuid.h>
#endif

namespace vcmon::vclock {

namespace {

// A monotonic-clock reading paired with another clock's reading (`read`) at the same instant:
// the monotonic clock is read between two readings of the other, and of several tries the
// narrowest bracket is kept.
struct ClockPairing {
  std::uint64_t mono_ns = 0;
  std::uint64_t other = 0;

  template <typename Read> static ClockPairing narrowest(Read&& read) {
    ClockPairing best;
    std::uint64_t best_width = ~std::uint64_t{0};
    for (int attempt = 0; attempt < 32; ++attempt) {
      const std::uint64_t before = read();
      const std::uint64_t mono = ClockSource::monotonic_raw_ns();
      const std::uint64_t after = read();
      if (after >= before && after - before < best_width) {
        best_width = after - before;
        best = {mono, before + (after - before) / 2};
      }
    }
    return best;
  }
};

#if VCMON_HAVE_CYCLE_COUNTER
std::uint64_t read_ticks() {
  return __rdtsc();
}
#endif

} // namespace

ClockSource::ClockSource(const ClockSource& other)
    : kind_(other.kind_), ns_per_tick_q32_(other.ns_per_tick_q32_.load()),
      origin_ticks_(other.origin_ticks_.load()) {}

ClockSource& ClockSource::operator=(const ClockSource& other) {
  kind_ = other.kind_;
  ns_per_tick_q32_.store(other.ns_per_tick_q32_.load());
  origin_ticks_.store(other.origin_ticks_.load());
  return *this;
}

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
  const ClockPairing start = ClockPairing::narrowest(read_ticks);
  while (monotonic_raw_ns() - start.mono_ns < calibration_ns) {
  }
  const ClockPairing end = ClockPairing::narrowest(read_ticks);
  if (end.other <= start.other || end.mono_ns <= start.mono_ns) {
    return monotonic();
  }
  const double ticks_per_ns = static_cast<double>(end.other - start.other) /
                              static_cast<double>(end.mono_ns - start.mono_ns);
  ClockSource source;
  source.kind_ = Kind::CycleCounter;
  source.ns_per_tick_q32_ = static_cast<std::uint64_t>(4294967296.0 / ticks_per_ns + 0.5);
  source.origin_ticks_ = __rdtsc();
  return source;
#else
  (void)calibration_ns;
  return monotonic();
#endif
}

bool ClockSource::adopt_rate(std::uint64_t ns_per_tick_q32) {
#if VCMON_HAVE_CYCLE_COUNTER
  if (kind_ != Kind::CycleCounter || ns_per_tick_q32 == 0) {
    return false;
  }
  // The origin that makes the new rate read now what the old one reads.
  const std::uint64_t ticks = __rdtsc();
  const auto reading = static_cast<unsigned __int128>(
      (static_cast<unsigned __int128>(ticks - origin_ticks_.load()) * ns_per_tick_q32_.load()) >>
      32);
  const auto elapsed_ticks = static_cast<std::uint64_t>((reading << 32) / ns_per_tick_q32);
  origin_ticks_.store(ticks - elapsed_ticks, std::memory_order_relaxed);
  ns_per_tick_q32_.store(ns_per_tick_q32, std::memory_order_relaxed);
  return true;
#else
  (void)ns_per_tick_q32;
  return false;
#endif
}

std::int64_t ClockSource::minus_monotonic_ns() const {
  const ClockPairing pairing = ClockPairing::narrowest([this] { return now_ns(); });
  return static_cast<std::int64_t>(pairing.other - pairing.mono_ns);
}

std::string_view ClockSource::name() const {
  return kind_ == Kind::CycleCounter ? "tsc" : "clock_gettime";
}

} // namespace vcmon::vclock
