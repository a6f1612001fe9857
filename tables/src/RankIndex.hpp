// The rank index of a version-6 profile: where each rank's records are, how long they are and
// their CRC-32, so that a reader seeks to one rank and verifies it alone
// (docs/profile-format.md, "Rank index").
#pragma once

#include "ProfileBytes.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace vcmon::tables::detail {

struct RankSection {
  std::int32_t rank = 0;
  std::uint32_t checksum = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

// The index at `index_start` in `bytes`, checked: its checksum, ranks sorted, distinct and
// within a run of `run_ranks` ranks, sections that follow the index and each other without gap
// or overlap and end exactly at the file's end, or where the summary starts when the file has
// one (`summary_offset`, already checked to lie in the file). Throws ProfileError naming the
// first problem; allocates no more than the file could describe.
std::vector<RankSection> read_rank_index(const ProfileBytes& bytes, std::uint64_t index_start,
                                         std::int32_t run_ranks,
                                         std::optional<std::uint64_t> summary_offset);

} // namespace vcmon::tables::detail
