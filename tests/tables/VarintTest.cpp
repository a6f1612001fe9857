// The profile's varints read back as written: every length from 1 to 10 bytes, each at every
// distance from the end of the input (the reader reads one-byte varints inline and longer ones
// out of line), and truncated or too wide ones refused.
#include "ByteReader.hpp"
#include "ByteWriter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace vcmon::tables::detail {
namespace {

using ::testing::HasSubstr;

// Values at both sides of every length boundary (2^(7k) - 1 and 2^(7k)), and the largest.
std::vector<std::uint64_t> boundary_values() {
  std::vector<std::uint64_t> values = {0, 1, UINT64_MAX, UINT64_MAX - 1};
  for (int bits = 7; bits < 64; bits += 7) {
    const std::uint64_t power = std::uint64_t{1} << bits;
    values.insert(values.end(), {power - 1, power, power + 1, power | (power >> 3)});
  }
  return values;
}

TEST(Varint, EveryLengthReadsBackAtEveryDistanceFromTheEnd) {
  for (const std::uint64_t value : boundary_values()) {
    for (std::size_t padding = 0; padding <= 9; ++padding) {
      ByteWriter out;
      out.varint(value);
      out.varint(value / 3); // a second varint right after it: the first must stop at its end
      for (std::size_t i = 0; i < padding; ++i) {
        out.u8(0x80 | static_cast<std::uint8_t>(i)); // continuation bits, never a stop
      }
      ByteReader in(out.bytes());
      EXPECT_EQ(in.varint("first"), value) << "padding " << padding;
      EXPECT_EQ(in.varint("second"), value / 3) << "value " << value << ", padding " << padding;
      EXPECT_EQ(in.remaining(), padding);
    }
  }
}

TEST(Varint, ATruncatedVarintIsRefusedAtAnyLength) {
  for (std::size_t length = 1; length <= 9; ++length) {
    std::vector<std::byte> bytes(length, std::byte{0x85}); // all continuation, no stop
    ByteReader in(bytes);
    try {
      in.varint("the test varint");
      ADD_FAILURE() << "a truncated varint of " << length << " bytes was read";
    } catch (const ProfileError& e) {
      EXPECT_THAT(e.what(), HasSubstr("truncated")) << length;
      EXPECT_THAT(e.what(), HasSubstr("the test varint")) << length;
    }
  }
}

TEST(Varint, TenBytesBeyondSixtyFourBitsAreRefused) {
  std::vector<std::byte> bytes(9, std::byte{0xff});
  bytes.push_back(std::byte{0x02}); // bit 64
  bytes.resize(20, std::byte{0});
  ByteReader in(bytes);
  EXPECT_THROW(in.varint("wide"), ProfileError);
}

} // namespace
} // namespace vcmon::tables::detail
