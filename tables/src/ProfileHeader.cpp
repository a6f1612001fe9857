#include "ProfileHeader.hpp"

#include "ByteReader.hpp"
#include "ByteWriter.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <string>

namespace vcmon::tables::detail {
namespace {

constexpr std::array<char, 8> kMagic = {'V', 'C', 'M', 'O', 'N', 'P', 'R', 'F'};

} // namespace

// zlib's CRC-32 is the same checksum as Boost's crc_32_type (profiles written with either read
// alike) at 3-10 times the speed: a quarter of reading a large profile was this loop.
Crc32::Crc32() : crc_(::crc32_z(0, nullptr, 0)) {}

void Crc32::add(std::span<const std::byte> data) {
  crc_ = ::crc32_z(crc_, reinterpret_cast<const Bytef*>(data.data()), data.size());
}

std::uint32_t crc32(std::span<const std::byte> data) {
  Crc32 crc;
  crc.add(data);
  return crc.value();
}

std::uint32_t framed_checksum(std::uint32_t version, std::span<const std::byte> framed) {
  if (version < kFirstVersionInHeadChecksum) {
    return crc32(framed);
  }
  ByteWriter version_bytes;
  version_bytes.fixed_u32(version);
  Crc32 crc;
  crc.add(version_bytes.bytes());
  crc.add(framed);
  return crc.value();
}

std::vector<std::byte> frame_profile_payload(std::span<const std::byte> framed,
                                             std::uint32_t version) {
  ByteWriter out;
  out.bytes().reserve(kProfileHeaderSize + framed.size());
  out.append(std::as_bytes(std::span(kMagic)));
  out.fixed_u32(version);
  out.fixed_u64(framed.size());
  out.fixed_u32(framed_checksum(version, framed));
  out.append(framed);
  return std::move(out.bytes());
}

ProfileHeader read_profile_header(std::span<const std::byte> start, std::uint64_t file_size) {
  // A short file whose bytes so far match the magic is a truncated profile; any other
  // mismatch means the file is not a profile at all.
  const std::size_t magic_bytes = std::min(start.size(), kMagic.size());
  if (!std::equal(start.begin(), start.begin() + static_cast<std::ptrdiff_t>(magic_bytes),
                  std::as_bytes(std::span(kMagic)).begin())) {
    throw ProfileError("not a vcmon profile (bad magic)");
  }
  ByteReader in(start);
  in.take(kMagic.size(), "the magic");
  ProfileHeader header;
  header.version = in.fixed_u32("the format version");
  if (header.version > kProfileVersion) {
    throw ProfileError("profile version " + std::to_string(header.version) +
                       " is newer than this vcmon (" + std::to_string(kProfileVersion) + ")");
  }
  if (header.version == 0) {
    throw ProfileError("profile version 0 does not exist");
  }
  header.framed_size = in.fixed_u64("the payload size");
  header.checksum = in.fixed_u32("the checksum");
  const std::uint64_t available = file_size - kProfileHeaderSize;
  const char* framed = header.version <= kLastWholePayloadVersion ? "payload" : "head";
  if (header.framed_size > available) {
    throw ProfileError("profile truncated at byte " + std::to_string(file_size) +
                       ": the header announces " + std::to_string(header.framed_size) + " " +
                       framed + " bytes, " + std::to_string(available) + " are present");
  }
  if (header.version <= kLastWholePayloadVersion && header.framed_size < available) {
    throw ProfileError("trailing garbage: " + std::to_string(available - header.framed_size) +
                       " bytes after the payload's end at byte " +
                       std::to_string(kProfileHeaderSize + header.framed_size));
  }
  return header;
}

void verify_framed_checksum(const ProfileHeader& header, std::span<const std::byte> framed) {
  if (framed_checksum(header.version, framed) != header.checksum) {
    throw ProfileError(header.version <= kLastWholePayloadVersion
                           ? "checksum mismatch: the profile is corrupt"
                           : "checksum mismatch: the profile's head is corrupt");
  }
}

} // namespace vcmon::tables::detail
