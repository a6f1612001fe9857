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

TEST(ClockSource, AdoptedRateContinuesTheReading) {
  const ClockSource reference = ClockSource::calibrate();
  ClockSource source = ClockSource::calibrate();
  if (source.kind() != ClockSource::Kind::CycleCounter) {
    EXPECT_FALSE(source.adopt_rate(reference.ns_per_tick_q32()));
    EXPECT_EQ(source.ns_per_tick_q32(), 0u);
    return;
  }
  const std::uint64_t before = source.now_ns();
  ASSERT_TRUE(source.adopt_rate(reference.ns_per_tick_q32()));
  const std::uint64_t after = source.now_ns();
  EXPECT_EQ(source.ns_per_tick_q32(), reference.ns_per_tick_q32());
  EXPECT_GE(after, before);
  EXPECT_LT(after - before, 10'000'000u); // no jump: only the time between the two reads
}

TEST(ClockSource, AdoptedRateIsTheRateRead) {
  const ClockSource reference = ClockSource::calibrate();
  ClockSource fast = reference;
  if (reference.kind() != ClockSource::Kind::CycleCounter) {
    EXPECT_FALSE(fast.adopt_rate(std::uint64_t{1} << 32));
    return;
  }
  ASSERT_TRUE(fast.adopt_rate(reference.ns_per_tick_q32() + reference.ns_per_tick_q32() / 100));
  const std::uint64_t reference_start = reference.now_ns();
  const std::uint64_t fast_start = fast.now_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::uint64_t fast_end = fast.now_ns();
  const std::uint64_t reference_end = reference.now_ns();
  EXPECT_NEAR(static_cast<double>(fast_end - fast_start) /
                  static_cast<double>(reference_end - reference_start),
              1.01, 0.001);
}

// Two sources calibrated apart drift apart (a rough calibration by tens of µs in 100 ms);
// once one has adopted the other's rate, what each reads minus CLOCK_MONOTONIC differs by a
// constant, as two processes' clocks on one host then do.
TEST(ClockSource, SourcesSharingARateKeepAConstantOffset) {
  const ClockSource reference = ClockSource::calibrate();
  ClockSource rough = ClockSource::calibrate(100'000);
  // Without a cycle counter both read CLOCK_MONOTONIC, and the offset is constant anyway.
  EXPECT_EQ(rough.adopt_rate(reference.ns_per_tick_q32()),
            reference.kind() == ClockSource::Kind::CycleCounter);
  const std::int64_t offset_before = rough.minus_monotonic_ns() - reference.minus_monotonic_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::int64_t offset_after = rough.minus_monotonic_ns() - reference.minus_monotonic_ns();
  EXPECT_NEAR(static_cast<double>(offset_after), static_cast<double>(offset_before), 1000.0);
}

TEST(ClockSource, MonotonicSourceDiffersFromTheMonotonicClockByItsOrigin) {
  const std::uint64_t before = ClockSource::monotonic_raw_ns();
  const ClockSource source = ClockSource::monotonic();
  const std::uint64_t after = ClockSource::monotonic_raw_ns();
  // Its origin is a reading taken between `before` and `after` (and the pairing is good to a
  // few ns: 1 µs of slack).
  const std::int64_t origin = -source.minus_monotonic_ns();
  EXPECT_LE(origin, static_cast<std::int64_t>(after) + 1000);
  EXPECT_GE(origin, static_cast<std::int64_t>(before) - 1000);
}

} // namespace
} // namespace vcmon::vclock
