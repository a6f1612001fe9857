// The resume points of CompletionOrder's inbox searches: a key starts at 0, keeps what was
// stored until the next reset, every key of a full call is kept apart, and a reset neither
// forgets to empty nor grows the table when it is large enough.
#include "mpi/requests/ResumePoints.hpp"

#include <gtest/gtest.h>

#include <cstdint>

using vcmon::runtime::mpi::ResumePoints;

namespace {

constexpr std::uint64_t key(std::uint32_t source, std::uint32_t tag) {
  return (std::uint64_t{source} << 32) | tag;
}

TEST(ResumePoints, AKeyStartsAtZeroAndKeepsWhatWasStored) {
  ResumePoints points;
  points.reset(4);
  EXPECT_EQ(points.at(key(1, 7)), 0u);
  points.at(key(1, 7)) = 12;
  points.at(key(2, 7)) = 3;
  EXPECT_EQ(points.at(key(1, 7)), 12u);
  EXPECT_EQ(points.at(key(2, 7)), 3u);
  EXPECT_EQ(points.at(key(1, 8)), 0u);
}

TEST(ResumePoints, AResetForgetsEveryKey) {
  ResumePoints points;
  for (int call = 0; call < 3; ++call) {
    points.reset(100);
    for (std::uint32_t source = 0; source < 100; ++source) {
      ASSERT_EQ(points.at(key(source, 0)), 0u) << "call " << call << ", source " << source;
      points.at(key(source, 0)) = source + 1;
    }
  }
}

TEST(ResumePoints, EveryKeyOfAFullCallIsKeptApart) {
  ResumePoints points;
  constexpr std::uint32_t kKeys = 20'000; // as many (source, tag) pairs as requests
  points.reset(kKeys);
  for (std::uint32_t i = 0; i < kKeys; ++i) {
    points.at(key(i % 7, i / 7)) = i;
  }
  for (std::uint32_t i = 0; i < kKeys; ++i) {
    ASSERT_EQ(points.at(key(i % 7, i / 7)), i);
  }
}

TEST(ResumePoints, GrowsForALargerCallAndNotForASmallerOne) {
  ResumePoints points;
  points.reset(10);
  const std::size_t small = points.slot_count();
  EXPECT_GE(small, 20u);
  points.reset(1000);
  const std::size_t large = points.slot_count();
  EXPECT_GE(large, 2000u);
  points.reset(10);
  EXPECT_EQ(points.slot_count(), large);
  EXPECT_EQ(points.at(key(0, 0)), 0u);
}

} // namespace
