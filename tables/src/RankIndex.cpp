#include "RankIndex.hpp"

#include "ByteReader.hpp"
#include "ByteWriter.hpp"
#include "ProfileHeader.hpp"
#include "ProfileSections.hpp"

#include "vcmon/tables/ProfileParts.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace vcmon::tables {
namespace {

using detail::ByteReader;
using detail::ByteWriter;
using std::to_string;

// u8 id | u64le count | count × (u32le rank | u64le offset | u64le size | u32le crc) | u32le crc
constexpr std::uint64_t kIndexStartBytes = 1 + 8;
constexpr std::uint64_t kEntryBytes = 4 + 8 + 8 + 4;
constexpr std::uint64_t kIndexEndBytes = 4;

} // namespace

RankSectionSize rank_section_size(std::int32_t rank, std::span<const std::byte> encoded) {
  return {rank, encoded.size(), detail::crc32(encoded)};
}

std::uint64_t rank_index_size(std::uint64_t ranks) {
  return kIndexStartBytes + ranks * kEntryBytes + kIndexEndBytes;
}

std::vector<std::byte> encode_rank_index(std::uint64_t head_size,
                                         std::span<const RankSectionSize> sections) {
  ByteWriter out;
  out.bytes().reserve(rank_index_size(sections.size()));
  out.u8(static_cast<std::uint8_t>(detail::Section::RankIndex));
  out.fixed_u64(sections.size());
  std::uint64_t offset = head_size + rank_index_size(sections.size());
  std::int64_t previous_rank = -1;
  for (const RankSectionSize& section : sections) {
    if (section.rank <= previous_rank) {
      throw std::invalid_argument("rank index: rank " + to_string(section.rank) + " follows rank " +
                                  to_string(previous_rank) + ": ranks must be sorted and distinct");
    }
    previous_rank = section.rank;
    out.fixed_u32(static_cast<std::uint32_t>(section.rank));
    out.fixed_u64(offset);
    out.fixed_u64(section.size);
    out.fixed_u32(section.checksum);
    offset += section.size;
  }
  out.fixed_u32(detail::crc32(out.bytes()));
  return std::move(out.bytes());
}

} // namespace vcmon::tables

namespace vcmon::tables::detail {

std::vector<RankSection> read_rank_index(const ProfileBytes& bytes, std::uint64_t index_start,
                                         std::int32_t run_ranks,
                                         std::optional<std::uint64_t> summary_offset) {
  const std::uint64_t file_size = bytes.size();
  const std::uint64_t ranks_end = summary_offset.value_or(file_size);
  const std::string summary_at =
      summary_offset ? "the summary at byte " + to_string(*summary_offset) : std::string();
  std::vector<std::byte> buffer;
  ByteReader start(bytes.read(index_start, kIndexStartBytes, buffer), index_start);
  const std::uint8_t id = start.u8("the rank index");
  if (id != static_cast<std::uint8_t>(Section::RankIndex)) {
    ByteReader::fail_at(index_start, "expected the rank index (id 5), found id " + to_string(id));
  }
  const std::uint64_t count = start.fixed_u64("the rank index's rank count");
  // Every entry must be in the file, so a hostile count cannot make the reader allocate.
  const std::uint64_t room = file_size - index_start - kIndexStartBytes;
  if (count > room / kEntryBytes) {
    throw ProfileError("profile truncated at byte " + to_string(file_size) +
                       ": the rank index announces " + to_string(count) + " ranks, " +
                       to_string(room) + " bytes remain for their entries");
  }
  const std::uint64_t index_size = rank_index_size(count);
  if (summary_offset && *summary_offset < index_start + index_size) {
    ByteReader::fail_at(index_start, summary_at + " overlaps the rank index, which ends at byte " +
                                         to_string(index_start + index_size));
  }
  const std::span<const std::byte> index = bytes.read(index_start, index_size, buffer);
  ByteReader in(index, index_start);
  in.take(kIndexStartBytes, "the rank index");
  if (index.size() < index_size) {
    throw ProfileError("profile truncated at byte " + to_string(file_size) +
                       " while reading the rank index");
  }
  if (crc32(index.first(index_size - kIndexEndBytes)) !=
      ByteReader(index.last(kIndexEndBytes)).fixed_u32("the rank index's checksum")) {
    throw ProfileError("checksum mismatch: the profile's rank index is corrupt");
  }

  std::vector<RankSection> sections(count);
  std::uint64_t end = index_start + index_size; // of the index, then of each section read
  std::int64_t previous_rank = -1;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::size_t at = in.offset();
    RankSection& s = sections[i];
    const std::uint32_t rank = in.fixed_u32("a rank index entry");
    s.offset = in.fixed_u64("a rank index entry");
    s.size = in.fixed_u64("a rank index entry");
    s.checksum = in.fixed_u32("a rank index entry");
    const std::string entry = "rank index entry " + to_string(i) + ": ";
    if (rank >= static_cast<std::uint32_t>(std::max(run_ranks, 0))) {
      ByteReader::fail_at(at, entry + "rank " + to_string(rank) + " is outside the " +
                                  to_string(run_ranks) + "-rank run");
    }
    s.rank = static_cast<std::int32_t>(rank);
    if (s.rank <= previous_rank) {
      ByteReader::fail_at(at, entry + "rank " + to_string(rank) + " follows rank " +
                                  to_string(previous_rank) + ": ranks must be sorted and distinct");
    }
    previous_rank = s.rank;
    const std::string records =
        "rank " + to_string(rank) + "'s records at byte " + to_string(s.offset);
    if (s.size > std::numeric_limits<std::uint64_t>::max() - s.offset) {
      ByteReader::fail_at(at,
                          entry + records + " of " + to_string(s.size) + " bytes end beyond 2^64");
    }
    if (s.offset != end && s.offset >= file_size) {
      ByteReader::fail_at(at, entry + records + " lie outside the " + to_string(file_size) +
                                  "-byte file");
    }
    if (s.offset < end) {
      ByteReader::fail_at(at, entry + records + " overlap what ends at byte " + to_string(end));
    }
    if (s.offset > end) {
      ByteReader::fail_at(at, entry + records + " leave a gap of " + to_string(s.offset - end) +
                                  " bytes after byte " + to_string(end));
    }
    end = s.offset + s.size;
    if (summary_offset && end > ranks_end) {
      ByteReader::fail_at(at, entry + records + " of " + to_string(s.size) + " bytes overlap " +
                                  summary_at);
    }
    if (end > file_size) {
      throw ProfileError("profile truncated at byte " + to_string(file_size) +
                         ": the rank index places rank " + to_string(rank) +
                         "'s records up to byte " + to_string(end));
    }
  }
  if (summary_offset && end != ranks_end) {
    ByteReader::fail_at(end, "the ranks' records end " + to_string(ranks_end - end) +
                                 " bytes before " + summary_at);
  }
  if (end < file_size && !summary_offset) {
    throw ProfileError("trailing garbage: " + to_string(file_size - end) +
                       " bytes after the payload's end at byte " + to_string(end));
  }
  return sections;
}

} // namespace vcmon::tables::detail
