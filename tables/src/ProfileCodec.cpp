// encode_profile / decode_profile: a whole profile from and to memory, through the same pieces a
// parallel writer puts in place (ProfileParts.hpp) and the reader of one rank at a time.
#include "ByteWriter.hpp"
#include "ProfileConsistency.hpp"
#include "ProfileHeader.hpp"
#include "ProfileSections.hpp"

#include "vcmon/tables/JobSummary.hpp"
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileParts.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <stdexcept>

namespace vcmon::tables {

std::vector<std::byte> encode_profile_head(const RunMetadata& meta, const ProgramGraph& graph) {
  detail::ByteWriter head;
  detail::write_head_sections(head, meta, graph);
  return detail::frame_profile_payload(head.bytes(), kProfileVersion);
}

SummarySectionSize summary_section_size(std::span<const std::byte> encoded) {
  return {encoded.size(), detail::crc32(encoded)};
}

SummarySectionSize summary_section_size(const JobSummary& summary) {
  SummarySectionSize size;
  detail::Crc32 crc;
  encode_job_summary(summary, kSummaryPieceBytes, [&](std::span<const std::byte> piece) {
    crc.add(piece);
    size.size += piece.size();
  });
  size.checksum = crc.value();
  return size;
}

std::vector<std::byte> encode_profile_head(const RunMetadata& meta, const ProgramGraph& graph,
                                           std::span<const RankSectionSize> sections,
                                           const SummarySectionSize& summary) {
  detail::ByteWriter head;
  detail::write_head_sections(head, meta, graph);
  std::uint64_t offset = detail::kProfileHeaderSize + head.bytes().size() +
                         detail::kSummaryPlaceBytes + rank_index_size(sections.size());
  for (const RankSectionSize& section : sections) {
    offset += section.size;
  }
  detail::write_summary_place(head, {offset, summary.size, summary.checksum});
  return detail::frame_profile_payload(head.bytes(), kProfileVersion);
}

std::vector<std::byte> encode_profile(const Profile& profile, const JobSummary* summary) {
  if (auto problem = detail::find_inconsistency(profile)) {
    throw std::invalid_argument("cannot encode an inconsistent profile: " + *problem);
  }
  std::vector<std::vector<std::byte>> ranks;
  std::vector<RankSectionSize> sections;
  for (const RankRecords& r : profile.ranks) {
    ranks.push_back(encode_rank_records(r));
    sections.push_back(rank_section_size(r.rank, ranks.back()));
  }
  const std::vector<std::byte> encoded_summary =
      summary != nullptr ? encode_job_summary(*summary) : std::vector<std::byte>();
  std::vector<std::byte> bytes = summary != nullptr
                                     ? encode_profile_head(profile.meta, profile.graph, sections,
                                                           summary_section_size(encoded_summary))
                                     : encode_profile_head(profile.meta, profile.graph);
  const std::vector<std::byte> index = encode_rank_index(bytes.size(), sections);
  bytes.insert(bytes.end(), index.begin(), index.end());
  for (const std::vector<std::byte>& rank : ranks) {
    bytes.insert(bytes.end(), rank.begin(), rank.end());
  }
  bytes.insert(bytes.end(), encoded_summary.begin(), encoded_summary.end());
  return bytes;
}

Profile decode_profile(std::span<const std::byte> bytes) {
  return ProfileReader(bytes).read_all();
}

} // namespace vcmon::tables
