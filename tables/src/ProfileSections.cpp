// The section framing and the head sections: strings, metadata, graph.
#include "ProfileSections.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

namespace vcmon::tables::detail {
namespace {

// Smallest encodings, used to bound counts by the bytes left.
constexpr std::size_t kMinStringBytes = 1;
constexpr std::size_t kMinIndexBytes = 1;
constexpr std::size_t kMinSiteBytes = 7;

// File names, callee names and symbols repeat across sites: each distinct string is stored
// once and referred to by its index.
class StringTableWriter {
public:
  void write(ByteWriter& out, std::string_view s) {
    const auto [it, inserted] = index_.try_emplace(s, static_cast<std::uint32_t>(strings_.size()));
    if (inserted) {
      strings_.push_back(s);
    }
    out.varint(it->second);
  }

  void write_table(ByteWriter& out) const {
    out.varint(strings_.size());
    for (std::string_view s : strings_) {
      out.string(s);
    }
  }

private:
  std::unordered_map<std::string_view, std::uint32_t> index_;
  std::vector<std::string_view> strings_;
};

class StringTableReader {
public:
  explicit StringTableReader(ByteReader& in) {
    strings_.resize(in.count(kMinStringBytes, "strings"));
    for (std::string& s : strings_) {
      s = in.string("a string");
    }
  }

  const std::string& read(ByteReader& in, const char* what) const {
    const std::size_t start = in.offset();
    const std::uint64_t index = in.varint(what);
    if (index >= strings_.size()) {
      ByteReader::fail_at(start, std::string(what) + ": string " + std::to_string(index) +
                                     " does not exist (the table has " +
                                     std::to_string(strings_.size()) + ")");
    }
    return strings_[index];
  }

private:
  std::vector<std::string> strings_;
};

void write_metadata(ByteWriter& out, StringTableWriter& strings, const RunMetadata& meta) {
  strings.write(out, meta.command);
  out.zigzag(meta.ranks);
  out.varint(meta.hosts.size());
  for (const std::string& host : meta.hosts) {
    strings.write(out, host);
  }
  out.zigzag(meta.start_unix_ns);
  out.zigzag(meta.end_unix_ns);
  strings.write(out, meta.clock.source);
  out.f64(meta.clock.ticks_per_ns);
  out.varint(meta.clock.probe_cost_ns);
  out.u8(meta.partial ? 1 : 0);
  strings.write(out, meta.partial_reason);
  out.varint(meta.activation_depth);
}

RunMetadata read_metadata(ByteReader& in, const StringTableReader& strings, std::uint32_t version) {
  RunMetadata meta;
  meta.command = strings.read(in, "the command");
  meta.ranks = in.zigzag_i32("the rank count");
  meta.hosts.resize(in.count(kMinIndexBytes, "hosts"));
  for (std::string& host : meta.hosts) {
    host = strings.read(in, "a host name");
  }
  meta.start_unix_ns = in.zigzag("the start time");
  meta.end_unix_ns = in.zigzag("the end time");
  meta.clock.source = strings.read(in, "the clock source");
  meta.clock.ticks_per_ns = in.f64("the clock rate");
  meta.clock.probe_cost_ns = in.varint("the probe cost");
  const std::size_t flag_at = in.offset();
  const std::uint8_t partial = in.u8("the partial flag");
  if (partial > 1) {
    ByteReader::fail_at(flag_at, "partial flag " + std::to_string(partial) + " is not 0 or 1");
  }
  meta.partial = partial == 1;
  meta.partial_reason = strings.read(in, "the partial reason");
  if (version >= 2) {
    meta.activation_depth = in.varint_u32("the activation depth");
  }
  return meta;
}

void write_graph(ByteWriter& out, StringTableWriter& strings, const ProgramGraph& graph) {
  out.varint(graph.size());
  for (const Site& s : graph.sites()) {
    // Since format 4 the kind byte also holds how the site was probed, in bits 2-3.
    out.u8(static_cast<std::uint8_t>(static_cast<unsigned>(s.kind) |
                                     static_cast<unsigned>(s.probing) << 2));
    // Parents precede their children, and usually closely: store the distance back.
    out.varint(s.parent == kNoSite ? 0 : s.id - s.parent);
    strings.write(out, s.pos.file);
    out.varint(s.pos.line);
    out.varint(s.pos.column);
    strings.write(out, s.name);
    strings.write(out, s.symbol);
  }
}

ProgramGraph read_graph(ByteReader& in, const StringTableReader& strings, std::uint32_t version) {
  ProgramGraph graph;
  const std::size_t count = in.count(kMinSiteBytes, "sites");
  for (std::size_t i = 0; i < count; ++i) {
    const auto id = static_cast<SiteId>(i);
    const std::size_t start = in.offset();
    const std::uint8_t kind_byte = in.u8("a site kind");
    const std::uint8_t kind = version >= 4 ? kind_byte & 0x3u : kind_byte;
    const std::uint8_t probing = version >= 4 ? kind_byte >> 2 : 0;
    if (kind > static_cast<std::uint8_t>(SiteKind::Comm)) {
      ByteReader::fail_at(start, "site " + std::to_string(id) + " has unknown kind " +
                                     std::to_string(kind));
    }
    if (probing > static_cast<std::uint8_t>(SiteProbing::Folded)) {
      ByteReader::fail_at(start, "site " + std::to_string(id) + " has unknown probing " +
                                     std::to_string(probing));
    }
    const std::uint64_t distance = in.varint("a site's parent");
    if (distance > id) {
      ByteReader::fail_at(start, "site " + std::to_string(id) + " has a parent before site 0");
    }
    const SiteId parent = distance == 0 ? kNoSite : static_cast<SiteId>(id - distance);
    SourcePos pos;
    pos.file = strings.read(in, "a site's file");
    pos.line = in.varint_u32("a site's line");
    pos.column = in.varint_u32("a site's column");
    std::string name = strings.read(in, "a site's name");
    std::string symbol = strings.read(in, "a site's symbol");
    try {
      graph.add_site(static_cast<SiteKind>(kind), std::move(pos), std::move(name), parent,
                     std::move(symbol), static_cast<SiteProbing>(probing));
    } catch (const std::invalid_argument& e) {
      ByteReader::fail_at(start, e.what());
    }
  }
  return graph;
}

} // namespace

const char* section_name(Section section) {
  switch (section) {
  case Section::Strings:
    return "the string section";
  case Section::Metadata:
    return "the metadata section";
  case Section::Graph:
    return "the graph section";
  case Section::Ranks:
    return "the rank section";
  case Section::RankIndex:
    return "the rank index";
  case Section::SummaryPlace:
    return "the summary's place";
  case Section::Summary:
    return "the summary";
  }
  return "an unknown section";
}

void write_section(ByteWriter& out, Section section, const ByteWriter& body) {
  out.u8(static_cast<std::uint8_t>(section));
  out.varint(body.bytes().size());
  out.append(body.bytes());
}

// The body of the next section, which must be `expected`.
ByteReader read_section(ByteReader& in, Section expected) {
  const std::size_t start = in.offset();
  const std::uint8_t id = in.u8("a section id");
  if (id != static_cast<std::uint8_t>(expected)) {
    ByteReader::fail_at(start, std::string("expected ") + section_name(expected) + " (id " +
                                   std::to_string(static_cast<int>(expected)) + "), found id " +
                                   std::to_string(id));
  }
  const std::size_t size = in.length(section_name(expected));
  const std::size_t body_start = in.offset();
  return ByteReader(in.take(size, section_name(expected)), body_start);
}

void expect_end(const ByteReader& in, const char* what) {
  if (!in.at_end()) {
    in.fail(std::to_string(in.remaining()) + " unread bytes at the end of " + what);
  }
}

void write_head_sections(ByteWriter& out, const RunMetadata& meta, const ProgramGraph& graph) {
  StringTableWriter strings;
  ByteWriter metadata;
  write_metadata(metadata, strings, meta);
  ByteWriter graph_section;
  write_graph(graph_section, strings, graph);
  ByteWriter string_table;
  strings.write_table(string_table);
  write_section(out, Section::Strings, string_table);
  write_section(out, Section::Metadata, metadata);
  write_section(out, Section::Graph, graph_section);
}

ProfileHead read_head_sections(ByteReader& in, std::uint32_t version) {
  ByteReader string_section = read_section(in, Section::Strings);
  const StringTableReader strings(string_section);
  expect_end(string_section, section_name(Section::Strings));

  ProfileHead head;
  ByteReader metadata = read_section(in, Section::Metadata);
  head.meta = read_metadata(metadata, strings, version);
  expect_end(metadata, section_name(Section::Metadata));

  ByteReader graph = read_section(in, Section::Graph);
  head.graph = read_graph(graph, strings, version);
  expect_end(graph, section_name(Section::Graph));
  return head;
}

void write_summary_place(ByteWriter& out, const SummaryPlace& place) {
  ByteWriter body;
  body.fixed_u64(place.offset);
  body.fixed_u64(place.size);
  body.fixed_u32(place.checksum);
  write_section(out, Section::SummaryPlace, body);
}

std::optional<SummaryPlace> read_summary_place(ByteReader& in, std::uint32_t version) {
  if (version < 7 || in.at_end()) {
    return std::nullopt;
  }
  ByteReader body = read_section(in, Section::SummaryPlace);
  SummaryPlace place;
  place.offset = body.fixed_u64("the summary's offset");
  place.size = body.fixed_u64("the summary's size");
  place.checksum = body.fixed_u32("the summary's checksum");
  expect_end(body, section_name(Section::SummaryPlace));
  return place;
}

} // namespace vcmon::tables::detail
