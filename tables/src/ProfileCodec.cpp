// encode_profile / decode_profile: a whole profile from and to memory, through the same pieces a
// parallel writer puts in place (ProfileParts.hpp) and the reader of one rank at a time.
#include "ByteWriter.hpp"
#include "ProfileConsistency.hpp"
#include "ProfileHeader.hpp"
#include "ProfileSections.hpp"

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

std::vector<std::byte> encode_profile(const Profile& profile) {
  if (auto problem = detail::find_inconsistency(profile)) {
    throw std::invalid_argument("cannot encode an inconsistent profile: " + *problem);
  }
  std::vector<std::byte> bytes = encode_profile_head(profile.meta, profile.graph);
  std::vector<std::vector<std::byte>> ranks;
  std::vector<RankSectionSize> sections;
  for (const RankRecords& r : profile.ranks) {
    ranks.push_back(encode_rank_records(r));
    sections.push_back(rank_section_size(r.rank, ranks.back()));
  }
  const std::vector<std::byte> index = encode_rank_index(bytes.size(), sections);
  bytes.insert(bytes.end(), index.begin(), index.end());
  for (const std::vector<std::byte>& rank : ranks) {
    bytes.insert(bytes.end(), rank.begin(), rank.end());
  }
  return bytes;
}

Profile decode_profile(std::span<const std::byte> bytes) {
  return ProfileReader(bytes).read_all();
}

} // namespace vcmon::tables
