#include "ResealedProfile.hpp"

#include "ProfileHeader.hpp"

#include "vcmon/tables/Profile.hpp"

#include <cstdint>

namespace vcmon::tables::fuzzing {
namespace {

std::uint64_t load(std::span<const std::byte> bytes, std::size_t at, int width) {
  std::uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    value |= static_cast<std::uint64_t>(bytes[at + static_cast<std::size_t>(i)]) << (8 * i);
  }
  return value;
}

void store_u32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    bytes[at + static_cast<std::size_t>(i)] = static_cast<std::byte>(value >> (8 * i));
  }
}

// Layout offsets, docs/profile-format.md: header fields, then the index's count and entries.
constexpr std::size_t kVersionAt = 8;
constexpr std::size_t kHeadSizeAt = 12;
constexpr std::size_t kHeadChecksumAt = 20;
constexpr std::size_t kEntryBytes = 24;
// Since version 7 the head may end with the summary's place: u8 6 | varint 20 | u64le offset |
// u64le size | u32le crc.
constexpr std::size_t kSummaryPlaceBytes = 1 + 1 + 8 + 8 + 4;

// The summary's checksum, when the head ends with its place.
void reseal_summary(std::vector<std::byte>& out, std::size_t head_end) {
  const std::size_t size = out.size();
  if (head_end < detail::kProfileHeaderSize + kSummaryPlaceBytes) {
    return;
  }
  const std::size_t place = head_end - kSummaryPlaceBytes;
  if (out[place] != std::byte{6} || out[place + 1] != std::byte{20}) {
    return;
  }
  const std::uint64_t offset = load(out, place + 2, 8);
  const std::uint64_t length = load(out, place + 10, 8);
  if (offset <= size && length <= size - offset) {
    store_u32(out, place + 18, detail::crc32(std::span(out).subspan(offset, length)));
  }
}

} // namespace

std::vector<std::byte> with_checksums_recomputed(std::span<const std::byte> bytes) {
  std::vector<std::byte> out(bytes.begin(), bytes.end());
  const std::size_t size = out.size();
  if (size < detail::kProfileHeaderSize || load(out, kVersionAt, 4) < 6 ||
      load(out, kVersionAt, 4) > kProfileVersion) {
    return out;
  }
  const std::uint64_t head_size = load(out, kHeadSizeAt, 8);
  if (head_size > size - detail::kProfileHeaderSize) {
    return out;
  }
  const std::size_t index = detail::kProfileHeaderSize + head_size;
  // Before the head's own checksum, which covers the summary's.
  reseal_summary(out, index);
  store_u32(out, kHeadChecksumAt,
            detail::framed_checksum(static_cast<std::uint32_t>(load(out, kVersionAt, 4)),
                                    std::span(out).subspan(detail::kProfileHeaderSize, head_size)));
  if (size - index < 9) {
    return out;
  }
  const std::uint64_t count = load(out, index + 1, 8);
  if (count > (size - index - 9) / kEntryBytes) {
    return out;
  }
  for (std::size_t entry = index + 9; entry < index + 9 + count * kEntryBytes;
       entry += kEntryBytes) {
    const std::uint64_t offset = load(out, entry + 4, 8);
    const std::uint64_t length = load(out, entry + 12, 8);
    if (offset <= size && length <= size - offset) {
      store_u32(out, entry + 20, detail::crc32(std::span(out).subspan(offset, length)));
    }
  }
  const std::size_t index_end = index + 9 + count * kEntryBytes;
  if (size - index_end >= 4) {
    store_u32(out, index_end, detail::crc32(std::span(out).subspan(index, index_end - index)));
  }
  return out;
}

} // namespace vcmon::tables::fuzzing
