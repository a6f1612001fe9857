#include "ProfileHeader.hpp"

#include "ByteReader.hpp"
#include "ByteWriter.hpp"

#include <boost/crc.hpp>

#include <algorithm>
#include <array>
#include <string>

namespace vcmon::tables::detail {
namespace {

constexpr std::array<char, 8> kMagic = {'V', 'C', 'M', 'O', 'N', 'P', 'R', 'F'};

} // namespace

std::uint32_t crc32(std::span<const std::byte> data) {
  boost::crc_32_type crc;
  crc.process_bytes(data.data(), data.size());
  return crc.checksum();
}

std::vector<std::byte> frame_profile_payload(std::span<const std::byte> payload) {
  ByteWriter out;
  out.bytes().reserve(kProfileHeaderSize + payload.size());
  out.append(std::as_bytes(std::span(kMagic)));
  out.fixed_u32(kProfileVersion);
  out.fixed_u64(payload.size());
  out.fixed_u32(crc32(payload));
  out.append(payload);
  return std::move(out.bytes());
}

FramedPayload unframe_profile_payload(std::span<const std::byte> file) {
  // A short file whose bytes so far match the magic is a truncated profile; any other
  // mismatch means the file is not a profile at all.
  const std::size_t magic_bytes = std::min(file.size(), kMagic.size());
  if (!std::equal(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(magic_bytes),
                  std::as_bytes(std::span(kMagic)).begin())) {
    throw ProfileError("not a vcmon profile (bad magic)");
  }
  ByteReader header(file);
  header.take(kMagic.size(), "the magic");
  const std::uint32_t version = header.fixed_u32("the format version");
  if (version > kProfileVersion) {
    throw ProfileError("profile version " + std::to_string(version) +
                       " is newer than this vcmon (" + std::to_string(kProfileVersion) + ")");
  }
  if (version == 0) {
    throw ProfileError("profile version 0 does not exist");
  }
  const std::uint64_t size = header.fixed_u64("the payload size");
  const std::uint32_t checksum = header.fixed_u32("the checksum");
  const std::size_t available = header.remaining();
  if (size > available) {
    throw ProfileError("profile truncated at byte " + std::to_string(file.size()) +
                       ": the header announces " + std::to_string(size) + " payload bytes, " +
                       std::to_string(available) + " are present");
  }
  if (size < available) {
    throw ProfileError("trailing garbage: " + std::to_string(available - size) +
                       " bytes after the payload's end at byte " +
                       std::to_string(kProfileHeaderSize + size));
  }
  const auto payload = file.subspan(kProfileHeaderSize);
  if (crc32(payload) != checksum) {
    throw ProfileError("checksum mismatch: the profile is corrupt");
  }
  return {version, payload};
}

} // namespace vcmon::tables::detail
