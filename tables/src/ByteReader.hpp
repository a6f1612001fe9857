// Reads what ByteWriter writes, bounds-checking every access. Every failure is a ProfileError
// naming the absolute byte offset in the file and what was being read.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

namespace vcmon::tables::detail {

class ByteReader {
public:
  // `base_offset` is where `bytes` start in the whole file, for error messages.
  explicit ByteReader(std::span<const std::byte> bytes, std::size_t base_offset = 0)
      : bytes_(bytes), base_(base_offset) {}

  std::size_t offset() const { return base_ + pos_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }

  std::uint8_t u8(const char* what) {
    need(1, what);
    return static_cast<std::uint8_t>(bytes_[pos_++]);
  }

  std::uint32_t fixed_u32(const char* what) { return static_cast<std::uint32_t>(fixed(4, what)); }
  std::uint64_t fixed_u64(const char* what) { return fixed(8, what); }
  double f64(const char* what) { return std::bit_cast<double>(fixed_u64(what)); }

  // Most numbers in a profile are below 128, one byte: that case is read inline, the rest (and
  // every error) out of line, so that the callers' loops stay small.
  std::uint64_t varint(const char* what) {
    if (pos_ < bytes_.size()) [[likely]] {
      const auto byte = static_cast<std::uint8_t>(bytes_[pos_]);
      if (byte < 0x80) [[likely]] {
        ++pos_;
        return byte;
      }
    }
    return varint_of_several_bytes(what);
  }

  std::uint32_t varint_u32(const char* what) {
    const std::size_t start = offset();
    const std::uint64_t value = varint(what);
    if (value > std::numeric_limits<std::uint32_t>::max()) {
      fail_at(start, std::string(what) + " " + std::to_string(value) + " is out of range");
    }
    return static_cast<std::uint32_t>(value);
  }

  std::int64_t zigzag(const char* what) {
    const std::uint64_t raw = varint(what);
    return static_cast<std::int64_t>(raw >> 1) ^ -static_cast<std::int64_t>(raw & 1);
  }

  std::int32_t zigzag_i32(const char* what) {
    const std::size_t start = offset();
    const std::int64_t value = zigzag(what);
    if (value < std::numeric_limits<std::int32_t>::min() ||
        value > std::numeric_limits<std::int32_t>::max()) {
      fail_at(start, std::string(what) + " " + std::to_string(value) + " is out of range");
    }
    return static_cast<std::int32_t>(value);
  }

  std::span<const std::byte> take(std::size_t n, const char* what) {
    need(n, what);
    const auto result = bytes_.subspan(pos_, n);
    pos_ += n;
    return result;
  }

  std::string string(const char* what) {
    const auto data = take(length(what), what);
    return {reinterpret_cast<const char*>(data.data()), data.size()};
  }

  // A byte length that must fit in what is left.
  std::size_t length(const char* what) {
    const std::uint64_t n = varint(what);
    if (n > remaining()) {
      truncated_at(base_ + bytes_.size(), what);
    }
    return static_cast<std::size_t>(n);
  }

  // An element count, bounded by the bytes left so that hostile counts cannot make the
  // decoder allocate more than the input could describe.
  std::size_t count(std::size_t min_bytes_each, const char* what) {
    const std::size_t start = offset();
    const std::uint64_t n = varint(what);
    if (n > remaining() / min_bytes_each) {
      fail_at(start, std::to_string(n) + " " + what + " announced but only " +
                         std::to_string(remaining()) + " bytes remain");
    }
    return static_cast<std::size_t>(n);
  }

  [[noreturn]] void fail(const std::string& problem) const { fail_at(offset(), problem); }

  [[noreturn]] static void fail_at(std::size_t offset, const std::string& problem) {
    throw ProfileError("corrupt profile at byte " + std::to_string(offset) + ": " + problem);
  }

private:
  [[gnu::noinline]] std::uint64_t varint_of_several_bytes(const char* what) {
    const std::size_t start = offset();
    std::uint64_t value = 0;
    for (int shift = 0; pos_ < bytes_.size(); shift += 7) {
      const auto byte = static_cast<std::uint8_t>(bytes_[pos_++]);
      if (shift == 63 && byte > 1) {
        too_wide(start, what);
      }
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) {
        return value;
      }
    }
    truncated_at(base_ + bytes_.size(), what);
  }

  void need(std::size_t n, const char* what) const {
    if (n > remaining()) {
      truncated_at(base_ + bytes_.size(), what);
    }
  }

  // Out of line, so that building the message costs the decoding loop nothing.
  [[noreturn, gnu::cold, gnu::noinline]] static void too_wide(std::size_t offset,
                                                              const char* what) {
    fail_at(offset, std::string("varint ") + what + " does not fit in 64 bits");
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void truncated_at(std::size_t offset,
                                                                  const char* what) {
    throw ProfileError("profile truncated at byte " + std::to_string(offset) + " while reading " +
                       what);
  }

  std::uint64_t fixed(int width, const char* what) {
    need(static_cast<std::size_t>(width), what);
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i) {
      value |= static_cast<std::uint64_t>(bytes_[pos_++]) << (8 * i);
    }
    return value;
  }

  std::span<const std::byte> bytes_;
  std::size_t base_;
  std::size_t pos_ = 0;
};

} // namespace vcmon::tables::detail
