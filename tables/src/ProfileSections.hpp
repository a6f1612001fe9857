// A profile's sections (u8 id | varint body size | body) and the three every version begins
// with: the string table, the run metadata and the program graph (docs/profile-format.md).
#pragma once

#include "ByteReader.hpp"
#include "ByteWriter.hpp"

#include "vcmon/tables/Profile.hpp"

#include <cstdint>

namespace vcmon::tables::detail {

enum class Section : std::uint8_t {
  Strings = 1,
  Metadata = 2,
  Graph = 3,
  Ranks = 4,     // up to version 5: every rank's records
  RankIndex = 5, // since version 6: where each rank's records are
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

} // namespace vcmon::tables::detail
