// A profile in the pieces a parallel writer puts in place itself (the runtime, where every rank
// writes its own records at its own offset): the head (header, strings, metadata, graph), the
// rank index right after it, then each rank's records as encode_rank_records gives them, in
// index order and without gaps. encode_profile joins the same pieces. docs/profile-format.md.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vcmon::tables {

// What the index says of one rank's records: whose, how long, their CRC-32.
struct RankSectionSize {
  std::int32_t rank = 0;
  std::uint64_t size = 0;
  std::uint32_t checksum = 0;
  bool operator==(const RankSectionSize&) const = default;
};

// The index entry of one rank's encoded records (encode_rank_records).
RankSectionSize rank_section_size(std::int32_t rank, std::span<const std::byte> encoded);

// The file's first bytes: header, string, metadata and graph sections.
std::vector<std::byte> encode_profile_head(const RunMetadata& meta, const ProgramGraph& graph);

struct JobSummary;

// The pieces in which a writer encodes the summary into the file (encode_job_summary).
inline constexpr std::size_t kSummaryPieceBytes = std::size_t{64} << 10;

// What the head says of the summary section (encode_job_summary's bytes): its size and CRC-32.
struct SummarySectionSize {
  std::uint64_t size = 0;
  std::uint32_t checksum = 0;
};
SummarySectionSize summary_section_size(std::span<const std::byte> encoded);
// The same, of the summary's encoding, counted and checksummed a piece at a time.
SummarySectionSize summary_section_size(const JobSummary& summary);
// The head of a profile that ends with a summary: the summary follows the rank sections
// `sections` (in the index's order), which follow the index, which follows this head.
std::vector<std::byte> encode_profile_head(const RunMetadata& meta, const ProgramGraph& graph,
                                           std::span<const RankSectionSize> sections,
                                           const SummarySectionSize& summary);

// The size of the index of `ranks` rank sections.
std::uint64_t rank_index_size(std::uint64_t ranks);

// The index that follows a head of `head_size` bytes, for the rank sections that follow it
// in the order given (ranks sorted and distinct): the first at head_size + its own size.
std::vector<std::byte> encode_rank_index(std::uint64_t head_size,
                                         std::span<const RankSectionSize> sections);

} // namespace vcmon::tables
