#include "vcmon/vclock/ClockSource.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace vcmon::vclock {
namespace {

// Reads the source and CLOCK_MONOTONIC over a real sleep: the two must agree within a
// generous tolerance (the machine is shared, so only gross calibration errors fail).
void expect_tracks_monotonic(const ClockSource& source) {
  const std::uint64_t source_start = source.now_ns();
  const std::uint64_t mono_start = ClockSource::monotonic_raw_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const std::uint64_t source_end = source.now_ns();
  const std::uint64_t mono_end = ClockSource::monotonic_raw_ns();
  ASSERT_GT(source_end, source_start);
  const double source_span = static_cast<double>(source_end - source_start);
  const double mono_span = static_cast<double>(mono_end - mono_start);
  EXPECT_GE(mono_span, 200e6);
  EXPECT_NEAR(source_span / mono_span, 1.0, 0.02);
}

TEST(ClockSource, CalibratedSourceTracksMonotonicClockOverASleep) {
  const ClockSource source = ClockSource::calibrate();
  if (ClockSource::has_invariant_cycle_counter()) {
    EXPECT_EQ(source.kind(), ClockSource::Kind::CycleCounter);
    EXPECT_EQ(source.name(), "tsc");
    EXPECT_GT(source.ticks_per_ns(), 0.01);
  } else {
    EXPECT_EQ(source.kind(), ClockSource::Kind::Monotonic);
  }
  expect_tracks_monotonic(source);
}

TEST(ClockSource, FallbackTracksMonotonicClockOverASleep) {
  const ClockSource source = ClockSource::monotonic();
  EXPECT_EQ(source.kind(), ClockSource::Kind::Monotonic);
  EXPECT_EQ(source.name(), "clock_gettime");
  expect_tracks_monotonic(source);
}

TEST(ClockSource, ZeroCalibrationTimeFallsBackToMonotonic) {
  EXPECT_EQ(ClockSource::calibrate(0).kind(), ClockSource::Kind::Monotonic);
}

TEST(ClockSource, ReadingsNeverGoBackwards) {
  const ClockSource source = ClockSource::calibrate();
  std::uint64_t previous = source.now_ns();
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t now = source.now_ns();
    ASSERT_GE(now, previous);
    previous = now;
  }
}

} // namespace
} // namespace vcmon::vclock
