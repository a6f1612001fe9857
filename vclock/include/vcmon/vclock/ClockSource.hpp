// The real-time source: the invariant cycle counter calibrated against CLOCK_MONOTONIC at
// start-up, or clock_gettime where the counter is not invariant.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define VCMON_HAVE_CYCLE_COUNTER 1
#else
#define VCMON_HAVE_CYCLE_COUNTER 0
#endif

namespace vcmon::vclock {

class ClockSource {
public:
  enum class Kind { CycleCounter, Monotonic };

  // Measures the counter against CLOCK_MONOTONIC for `calibration_ns` (a few ms suffice).
  // Falls back to monotonic() when the counter is missing or not invariant.
  static ClockSource calibrate(std::uint64_t calibration_ns = 5'000'000);
  static ClockSource monotonic();

  ClockSource() = default;
  ClockSource(const ClockSource& other);
  ClockSource& operator=(const ClockSource& other);

  // True when the CPU reports an invariant time-stamp counter (cpuid 0x80000007, EDX bit 8):
  // constant rate across frequency changes and sleep states, so ticks convert to time.
  static bool has_invariant_cycle_counter();

  // Nanoseconds since an arbitrary, process-local origin. O(1), no system call on the
  // cycle-counter path. Inline because every probe reads it.
  std::uint64_t now_ns() const {
#if VCMON_HAVE_CYCLE_COUNTER
    if (kind_ == Kind::CycleCounter) {
      // Fixed point (ns per tick × 2^32): one multiplication, no conversion to double.
      const auto ticks =
          static_cast<unsigned __int128>(__rdtsc() - origin_ticks_.load(std::memory_order_relaxed));
      return static_cast<std::uint64_t>(
          (ticks * ns_per_tick_q32_.load(std::memory_order_relaxed)) >> 32);
    }
#endif
    return monotonic_raw_ns() - origin_ticks_.load(std::memory_order_relaxed);
  }

  // The rate of a cycle counter (ns per tick × 2^32); 0 for clock_gettime.
  std::uint64_t ns_per_tick_q32() const {
    return kind_ == Kind::CycleCounter ? ns_per_tick_q32_.load(std::memory_order_relaxed) : 0;
  }
  // Converts ticks at `ns_per_tick_q32` (another process's calibration of the same counter)
  // from now on, continuing from the current reading: processes that share a counter and its
  // rate keep a constant offset, where each one's own calibration (measured apart by up to
  // 1 µs per second: docs/runtime.md, "Clock offsets") lets them drift apart. False, and nothing
  // changes, unless both are cycle counters. A reader on another thread at that instant may see the
  // new origin with the old rate: one reading off by the rate's difference times the time read
  // (ns).
  bool adopt_rate(std::uint64_t ns_per_tick_q32);
  // This source's reading minus CLOCK_MONOTONIC at the same instant, to a few ns: the clock is
  // read between two readings of the source, and of several tries the narrowest pair is kept.
  std::int64_t minus_monotonic_ns() const;

  Kind kind() const {
    return kind_;
  }
  std::string_view name() const; // "tsc" or "clock_gettime"
  double ticks_per_ns() const {
    return 4294967296.0 / static_cast<double>(ns_per_tick_q32_.load(std::memory_order_relaxed));
  }

  // CLOCK_MONOTONIC in nanoseconds, without any origin.
  static std::uint64_t monotonic_raw_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
           static_cast<std::uint64_t>(ts.tv_nsec);
  }

private:
  Kind kind_ = Kind::Monotonic;
  // Atomic only because adopt_rate() may change them while other threads read (relaxed: a
  // plain load on x86).
  std::atomic<std::uint64_t> ns_per_tick_q32_ = std::uint64_t{1} << 32;
  std::atomic<std::uint64_t> origin_ticks_ =
      0; // counter ticks, or monotonic ns on the fallback path
};

} // namespace vcmon::vclock
