// Appends the primitive encodings of the profile format: little-endian fixed-width integers,
// LEB128 varints, zigzag-coded signed varints and length-prefixed byte strings.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace vcmon::tables::detail {

class ByteWriter {
public:
  void u8(std::uint8_t value) { bytes_.push_back(static_cast<std::byte>(value)); }

  void fixed_u32(std::uint32_t value) { fixed(value, 4); }
  void fixed_u64(std::uint64_t value) { fixed(value, 8); }
  void f64(double value) { fixed_u64(std::bit_cast<std::uint64_t>(value)); }

  void varint(std::uint64_t value) {
    while (value >= 0x80) {
      u8(static_cast<std::uint8_t>(value | 0x80));
      value >>= 7;
    }
    u8(static_cast<std::uint8_t>(value));
  }

  // Zigzag maps small magnitudes of either sign to small unsigned values.
  void zigzag(std::int64_t value) {
    varint((static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63));
  }

  void append(std::span<const std::byte> data) {
    bytes_.insert(bytes_.end(), data.begin(), data.end());
  }

  void string(std::string_view text) {
    varint(text.size());
    append(std::as_bytes(std::span(text.data(), text.size())));
  }

  std::vector<std::byte>& bytes() { return bytes_; }
  const std::vector<std::byte>& bytes() const { return bytes_; }

private:
  void fixed(std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i) {
      u8(static_cast<std::uint8_t>(value >> (8 * i)));
    }
  }

  std::vector<std::byte> bytes_;
};

} // namespace vcmon::tables::detail
