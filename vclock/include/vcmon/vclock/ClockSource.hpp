// The real-time source: the invariant cycle counter calibrated against CLOCK_MONOTONIC at
// start-up, or clock_gettime where the counter is not invariant.
#pragma once

#include <cstdint>
#include <string_view>

namespace vcmon::vclock {

class ClockSource {
public:
  enum class Kind { CycleCounter, Monotonic };

  // Measures the counter against CLOCK_MONOTONIC for `calibration_ns` (a few ms suffice).
  static ClockSource calibrate(std::uint64_t calibration_ns = 5'000'000);
  static ClockSource monotonic();

  // Nanoseconds since an arbitrary, process-local origin. O(1), no system call on the
  // cycle-counter path.
  std::uint64_t now_ns() const;

  Kind kind() const { return kind_; }
  std::string_view name() const; // "tsc" or "clock_gettime"
  double ticks_per_ns() const { return ticks_per_ns_; }

private:
  Kind kind_ = Kind::Monotonic;
  double ticks_per_ns_ = 1.0;
  double ns_per_tick_ = 1.0;
  std::uint64_t origin_ticks_ = 0;
};

} // namespace vcmon::vclock
