// Appends the primitive encodings of the profile format: little-endian fixed-width integers,
// LEB128 varints, zigzag-coded signed varints and length-prefixed byte strings.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace vcmon::tables::detail {

// Where a writer's bytes go: kept whole (ByteVector) or handed out in pieces (BytePieces).
class ByteVector {
public:
  void put(std::byte byte) { bytes_.push_back(byte); }
  void put(std::span<const std::byte> data) {
    bytes_.insert(bytes_.end(), data.begin(), data.end());
  }
  std::vector<std::byte>& bytes() { return bytes_; }
  const std::vector<std::byte>& bytes() const { return bytes_; }

private:
  std::vector<std::byte> bytes_;
};

// Hands the bytes to `take` in pieces of `piece_size` (the last one shorter, at flush()), so that
// a large encoding goes to a file without being held whole.
class BytePieces {
public:
  BytePieces(std::size_t piece_size, std::function<void(std::span<const std::byte>)> take)
      : piece_size_(piece_size), take_(std::move(take)) {
    piece_.reserve(piece_size);
  }
  void put(std::byte byte) {
    piece_.push_back(byte);
    if (piece_.size() == piece_size_) {
      flush();
    }
  }
  void put(std::span<const std::byte> data) {
    for (const std::byte byte : data) {
      put(byte);
    }
  }
  void flush() {
    if (!piece_.empty()) {
      take_(piece_);
      piece_.clear();
    }
  }

private:
  std::size_t piece_size_;
  std::function<void(std::span<const std::byte>)> take_;
  std::vector<std::byte> piece_;
};

template <class Sink> class BasicByteWriter {
public:
  template <class... Args>
  explicit BasicByteWriter(Args&&... args) : sink_(std::forward<Args>(args)...) {}

  void u8(std::uint8_t value) { sink_.put(static_cast<std::byte>(value)); }

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

  void append(std::span<const std::byte> data) { sink_.put(data); }

  void string(std::string_view text) {
    varint(text.size());
    append(std::as_bytes(std::span(text.data(), text.size())));
  }

  Sink& sink() { return sink_; }
  auto& bytes() { return sink_.bytes(); }
  const auto& bytes() const { return sink_.bytes(); }

private:
  void fixed(std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i) {
      u8(static_cast<std::uint8_t>(value >> (8 * i)));
    }
  }

  Sink sink_;
};

using ByteWriter = BasicByteWriter<ByteVector>;
using PieceWriter = BasicByteWriter<BytePieces>;

} // namespace vcmon::tables::detail
