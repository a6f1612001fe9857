// A profile's sections (u8 id | varint body size | body) and the three every version begins
// with: the string table, the run metadata and the program graph (docs/profile-format.md).
#pragma once

#include "ByteReader.hpp"
#include "ByteWriter.hpp"

#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <optional>

namespace vcmon::tables::detail {

enum class Section : std::uint8_t {
  Strings = 1,
  Metadata = 2,
  Graph = 3,
  Ranks = 4,        // up to version 5: every rank's records
  RankIndex = 5,    // since version 6: where each rank's records are
  SummaryPlace = 6, // since version 7, optional, ends the head: where the summary is
  Summary = 7,      // since version 7: the job's summary (JobSummary.hpp), ending the file
};

const char* section_name(Section section);

void write_section(ByteWriter& out, Section section, const ByteWriter& body);
// The body of the next section, which must be `expected`.
ByteReader read_section(ByteReader& in, Section expected);
void expect_end(const ByteReader& in, const char* what);

// The string, metadata and graph sections, in this order.
void write_head_sections(ByteWriter& out, const RunMetadata& meta, const ProgramGraph& graph);

struct ProfileHead {
  RunMetadata meta;
  ProgramGraph graph;
};
ProfileHead read_head_sections(ByteReader& in, std::uint32_t version);

// Where a version-7 profile's summary section is: its offset, size and CRC-32.
struct SummaryPlace {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t checksum = 0;
};
inline constexpr std::uint64_t kSummaryPlaceBytes = 1 + 1 + 8 + 8 + 4;
void write_summary_place(ByteWriter& out, const SummaryPlace& place);
// The place that ends the head, if any (since version 7).
std::optional<SummaryPlace> read_summary_place(ByteReader& in, std::uint32_t version);

} // namespace vcmon::tables::detail
