// The encoding of one rank's records, shared by the profile's rank section and the
// stand-alone encode_rank_records used to gather ranks to the writer.
#pragma once

#include "ByteReader.hpp"
#include "ByteWriter.hpp"

#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileReader.hpp"
#include "vcmon/tables/Records.hpp"

namespace vcmon::tables::detail {

// In the layout of `version` (at least 5): the calling contexts only from version 6.
void write_rank_records(ByteWriter& out, const RankRecords& records,
                        std::uint32_t version = kProfileVersion);
// Reads one rank's records as profile format `version` wrote them; checks structure only (site
// kinds need the program graph).
RankRecords read_rank_records(ByteReader& in, std::uint32_t version);
// The same, the contexts given to `contexts` a piece at a time instead of held in the records.
RankRecords read_rank_records(ByteReader& in, std::uint32_t version,
                              const ProfileReader::ContextPieces& contexts);

} // namespace vcmon::tables::detail
