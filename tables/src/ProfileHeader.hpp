// The fixed 24-byte header that frames a profile's payload: magic, version, payload size and
// the payload's CRC-32 (docs/profile-format.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vcmon::tables::detail {

inline constexpr std::size_t kProfileHeaderSize = 24;

// CRC-32 as in zlib and PNG (reflected polynomial 0xEDB88320).
std::uint32_t crc32(std::span<const std::byte> data);

// The header for `payload` followed by the payload itself.
std::vector<std::byte> frame_profile_payload(std::span<const std::byte> payload);

struct FramedPayload {
  std::uint32_t version = 0; // the file's format version, at most kProfileVersion
  std::span<const std::byte> bytes;
};

// The payload of a whole profile file after checking magic, version, size and checksum;
// throws ProfileError naming the first problem found.
FramedPayload unframe_profile_payload(std::span<const std::byte> file);

} // namespace vcmon::tables::detail
