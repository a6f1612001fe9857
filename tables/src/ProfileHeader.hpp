// The fixed 24-byte header that starts every profile: magic, version, the size of what it
// frames and that part's CRC-32 (docs/profile-format.md). Up to version 5 it frames the whole
// payload; since version 6 the head sections only (strings, metadata, graph): the rank index
// and each rank's records carry checksums of their own, so that one rank reads and verifies
// alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vcmon::tables::detail {

inline constexpr std::size_t kProfileHeaderSize = 24;
// The last version whose header frames the whole payload, ranks included.
inline constexpr std::uint32_t kLastWholePayloadVersion = 5;

// CRC-32 as in zlib and PNG (reflected polynomial 0xEDB88320).
std::uint32_t crc32(std::span<const std::byte> data);
// The same of bytes added a piece at a time.
class Crc32 {
public:
  Crc32();
  void add(std::span<const std::byte> data);
  std::uint32_t value() const { return static_cast<std::uint32_t>(crc_); }

private:
  unsigned long crc_;
};

// Since version 7 the header's checksum covers the format version (its 4 bytes, then the
// head): a version 7 file without a summary is laid out as version 6 was, and a flipped version
// bit must not turn one into the other unnoticed.
inline constexpr std::uint32_t kFirstVersionInHeadChecksum = 7;
// The header's checksum of `framed` in a file of format `version`.
std::uint32_t framed_checksum(std::uint32_t version, std::span<const std::byte> framed);

// The header for `framed` (as format `version` frames it) followed by `framed` itself.
std::vector<std::byte> frame_profile_payload(std::span<const std::byte> framed,
                                             std::uint32_t version);

struct ProfileHeader {
  std::uint32_t version = 0; // the file's format version, at most kProfileVersion
  std::uint64_t framed_size = 0;
  std::uint32_t checksum = 0;
};

// The header of a file of `file_size` bytes, from its first bytes `start` (all of the header
// when the file is that long), after checking magic, version and that the framed part fits
// (and, up to version 5, ends the file); throws ProfileError naming the first problem found.
ProfileHeader read_profile_header(std::span<const std::byte> start, std::uint64_t file_size);

// Throws ProfileError unless `framed` has the header's checksum.
void verify_framed_checksum(const ProfileHeader& header, std::span<const std::byte> framed);

} // namespace vcmon::tables::detail
