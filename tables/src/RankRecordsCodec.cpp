#include "RankRecordsCodec.hpp"

#include "vcmon/tables/Profile.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace vcmon::tables::detail {
namespace {

// Records usually come sorted by site, so each id is stored as the difference to the
// previous one: one byte instead of two or three.
class SiteIdDeltas {
public:
  void write(ByteWriter& out, SiteId id) {
    out.zigzag(static_cast<std::int64_t>(id) - previous_);
    previous_ = id;
  }

  SiteId read(ByteReader& in, const char* what) {
    const std::size_t start = in.offset();
    const std::int64_t delta = in.zigzag(what);
    // Both operands are bounded (previous_ < 2^32), so only a hostile delta can leave range.
    if (delta < -previous_ || delta >= static_cast<std::int64_t>(kNoSite) - previous_) {
      ByteReader::fail_at(start, std::string(what) + " is out of range");
    }
    previous_ += delta;
    return static_cast<SiteId>(previous_);
  }

private:
  std::int64_t previous_ = 0;
};

// Optional site ids (kNoSite) are stored shifted by one so that "none" is the byte 0.
void write_optional_site(ByteWriter& out, SiteId id) {
  out.varint(id == kNoSite ? 0 : std::uint64_t{id} + 1);
}

SiteId read_optional_site(ByteReader& in, const char* what) {
  const std::size_t start = in.offset();
  const std::uint64_t value = in.varint(what);
  if (value > kNoSite) {
    ByteReader::fail_at(start, std::string(what) + " is out of range");
  }
  return value == 0 ? kNoSite : static_cast<SiteId>(value - 1);
}

// How a com record's message sizes are stored (since version 5). Most records moved no message
// (a completion call's waiting) or `count` messages of one size, whose total and size class
// follow from that size: storing only what does not follow keeps the record short and its
// length independent of the run's length (docs/profile-format.md, "Size").
enum class SizeLayout : std::uint8_t {
  None = 0,    // no message: bytes, smallest, largest and every size class 0
  Uniform = 1, // `count` messages of one size: varint size
  Listed = 2   // varint bytes | varint smallest | varint largest | 8 × varint per size class
};

// `com` with its message fields set as `count` messages of `size` bytes; false when the total
// does not fit in 64 bits.
bool set_uniform_sizes(ComRecord& com, std::uint64_t size) {
  if (__builtin_mul_overflow(size, com.count, &com.bytes)) {
    return false;
  }
  com.sizes = {.min_bytes = size, .max_bytes = size};
  com.sizes.classes[size_class(size)] = com.count;
  return true;
}

SizeLayout shape_of(const ComRecord& com) {
  if (com == ComRecord{com.comm, com.partner, com.transmission_ns, com.sync_delay_ns, com.count}) {
    return SizeLayout::None;
  }
  ComRecord uniform = com;
  const bool derivable = com.count > 0 && set_uniform_sizes(uniform, com.sizes.min_bytes);
  return derivable && uniform == com ? SizeLayout::Uniform : SizeLayout::Listed;
}

void write_message_sizes(ByteWriter& out, const ComRecord& com) {
  const SizeLayout shape = shape_of(com);
  out.u8(static_cast<std::uint8_t>(shape));
  if (shape == SizeLayout::Uniform) {
    out.varint(com.sizes.min_bytes);
  } else if (shape == SizeLayout::Listed) {
    out.varint(com.bytes);
    out.varint(com.sizes.min_bytes);
    out.varint(com.sizes.max_bytes);
    for (const std::uint64_t messages : com.sizes.classes) {
      out.varint(messages);
    }
  }
}

void read_listed_sizes(ByteReader& in, ComRecord& com) {
  com.bytes = in.varint("a com record's bytes");
  com.sizes.min_bytes = in.varint("a com record's smallest message");
  com.sizes.max_bytes = in.varint("a com record's largest message");
  for (std::uint64_t& messages : com.sizes.classes) {
    messages = in.varint("a com record's messages of one size class");
  }
}

void read_message_sizes(ByteReader& in, ComRecord& com) {
  const std::size_t start = in.offset();
  switch (static_cast<SizeLayout>(in.u8("a com record's message sizes"))) {
  case SizeLayout::None:
    return;
  case SizeLayout::Uniform:
    if (!set_uniform_sizes(com, in.varint("a com record's message size"))) {
      ByteReader::fail_at(start, "a com record's messages overflow 64 bits of bytes");
    }
    return;
  case SizeLayout::Listed:
    read_listed_sizes(in, com);
    return;
  }
  ByteReader::fail_at(start, "a com record's message sizes have an unknown layout");
}

// Smallest encodings, used to bound counts by the bytes left.
constexpr std::size_t kMinProcRecordBytes = 4;
constexpr std::size_t kMinLoopRecordBytes = 4;
constexpr std::size_t kMinComRecordBytes = 6;
constexpr std::size_t kMinContextRecordBytes = 3;

// What a site's per-site records say of all its activations, in a context's fields (a site is
// of one kind, so at most one family adds to it; a call site counts its callees' activations).
// A context that is its site's only one and says the same is stored as one bit: the contexts
// then repeat nothing that grows with the run's length where the program has one path to a site.
std::unordered_map<SiteId, ContextRecord> per_site_totals(const RankRecords& r) {
  std::unordered_map<SiteId, ContextRecord> totals;
  for (const ProcRecord& p : r.procs) {
    ContextRecord& t = totals[p.proc];
    t.count += p.count;
    t.time_ns += p.time_ns;
    t.untimed += p.untimed;
    if (p.call_site != kNoSite) {
      totals[p.call_site].count += p.count;
    }
  }
  for (const LoopRecord& l : r.loops) {
    ContextRecord& t = totals[l.loop];
    t.count += l.count;
    t.time_ns += l.time_ns;
    t.iterations += l.iterations;
  }
  for (const ComRecord& c : r.coms) {
    ContextRecord& t = totals[c.comm];
    t.count += c.count;
    t.time_ns += c.transmission_ns;
    t.sync_delay_ns += c.sync_delay_ns;
    t.bytes += c.bytes;
  }
  return totals;
}

bool same_records(const ContextRecord& a, const ContextRecord& b) {
  return a.count == b.count && a.time_ns == b.time_ns && a.untimed == b.untimed &&
         a.iterations == b.iterations && a.sync_delay_ns == b.sync_delay_ns && a.bytes == b.bytes;
}

// A proc or loop record's sums, in SumFields order (the format's).
template <typename Record> void write_sums(ByteWriter& out, const Record& r) {
  for_each_sum_field<Record>([&](auto field) { out.varint(r.*field); });
}

} // namespace

void write_rank_records(ByteWriter& out, const RankRecords& r, std::uint32_t version) {
  out.zigzag(r.rank);
  out.string(r.host);
  out.varint(r.virtual_ns);
  out.varint(r.real_ns);
  out.varint(r.intrusion_ns);
  out.zigzag(r.clock_offset_ns);
  out.varint(r.counters.probe_events);
  out.varint(r.counters.wildcard_decisions);
  out.varint(r.counters.cycle_breaks);
  out.varint(r.counters.control_messages);
  out.varint(r.counters.safety_wait_ns);
  out.varint(r.counters.folded_activations);
  out.varint(r.counters.forced_decisions);

  out.varint(r.procs.size());
  SiteIdDeltas procs;
  for (const ProcRecord& p : r.procs) {
    procs.write(out, p.proc);
    write_optional_site(out, p.call_site);
    write_sums(out, p);
  }
  out.varint(r.loops.size());
  SiteIdDeltas loops;
  for (const LoopRecord& l : r.loops) {
    loops.write(out, l.loop);
    write_sums(out, l);
  }
  out.varint(r.coms.size());
  SiteIdDeltas coms;
  for (const ComRecord& c : r.coms) {
    coms.write(out, c.comm);
    out.zigzag(c.partner);
    out.varint(c.transmission_ns);
    out.varint(c.sync_delay_ns);
    out.varint(c.count);
    write_message_sizes(out, c);
  }
  if (version < 6) {
    return;
  }
  out.varint(r.counters.folded_contexts);
  out.varint(r.contexts.size());
  const std::unordered_map<SiteId, ContextRecord> totals = per_site_totals(r);
  std::unordered_map<SiteId, std::size_t> contexts_of_site;
  for (const ContextRecord& c : r.contexts) {
    ++contexts_of_site[c.site];
  }
  SiteIdDeltas contexts;
  for (std::size_t i = 0; i < r.contexts.size(); ++i) {
    const ContextRecord& c = r.contexts[i];
    const auto total = totals.find(c.site);
    const bool derived =
        contexts_of_site[c.site] == 1 && total != totals.end() && same_records(c, total->second);
    // The parent comes first: a small positive distance, shifted to hold the derived bit.
    out.varint((std::uint64_t{i + 1 - c.parent} << 1) | (derived ? 1 : 0));
    contexts.write(out, c.site);
    if (!derived) {
      out.varint(c.count);
      out.varint(c.time_ns);
      out.varint(c.untimed);
      out.varint(c.iterations);
      out.varint(c.sync_delay_ns);
      out.varint(c.bytes);
    }
    out.varint(c.folded);
  }
}

namespace {

// Gives the contexts read to `take` in pieces small enough to stay in the cache.
class ContextPieceWriter {
public:
  explicit ContextPieceWriter(const ProfileReader::ContextPieces& take) : take_(take) {}
  void reserve(std::size_t count) { piece_.reserve(std::min(count, kPieceSize)); }
  void push_back(const ContextRecord& context) {
    piece_.push_back(context);
    if (piece_.size() == kPieceSize) {
      flush();
    }
  }
  void flush() {
    take_(piece_);
    piece_.clear();
  }

private:
  static constexpr std::size_t kPieceSize = 1024; // 64 KiB
  const ProfileReader::ContextPieces& take_;
  std::vector<ContextRecord> piece_;
};

// Everything but the contexts into the records returned, the contexts into `contexts` (a
// vector, or a ContextPieceWriter).
template <typename Contexts>
RankRecords read_records(ByteReader& in, std::uint32_t version, Contexts& contexts) {
  RankRecords r;
  r.rank = in.zigzag_i32("the rank number");
  r.host = in.string("the rank's host name");
  r.virtual_ns = in.varint("the rank's virtual time");
  r.real_ns = in.varint("the rank's real time");
  r.intrusion_ns = in.varint("the rank's intrusion");
  r.clock_offset_ns = in.zigzag("the rank's clock offset");
  r.counters.probe_events = in.varint("the probe event counter");
  r.counters.wildcard_decisions = in.varint("the wildcard decision counter");
  r.counters.cycle_breaks = in.varint("the cycle break counter");
  r.counters.control_messages = in.varint("the control message counter");
  r.counters.safety_wait_ns = in.varint("the safety wait time");
  if (version >= 2) {
    r.counters.folded_activations = in.varint("the folded activation counter");
    r.counters.forced_decisions = in.varint("the forced decision counter");
  }

  r.procs.resize(in.count(kMinProcRecordBytes, "proc records"));
  SiteIdDeltas procs;
  for (ProcRecord& p : r.procs) {
    p.proc = procs.read(in, "a proc record's procedure");
    p.call_site = read_optional_site(in, "a proc record's call site");
    p.time_ns = in.varint("a proc record's time");
    p.count = in.varint("a proc record's count");
    if (version >= 4) {
      p.untimed = in.varint("a proc record's untimed activations");
    }
  }
  r.loops.resize(in.count(kMinLoopRecordBytes, "loop records"));
  SiteIdDeltas loops;
  for (LoopRecord& l : r.loops) {
    l.loop = loops.read(in, "a loop record's loop");
    l.time_ns = in.varint("a loop record's time");
    l.count = in.varint("a loop record's count");
    l.iterations = in.varint("a loop record's iterations");
  }
  r.coms.resize(in.count(kMinComRecordBytes, "com records"));
  SiteIdDeltas coms;
  for (ComRecord& c : r.coms) {
    c.comm = coms.read(in, "a com record's statement");
    c.partner = in.zigzag_i32("a com record's partner");
    c.transmission_ns = in.varint("a com record's transmission time");
    c.sync_delay_ns = in.varint("a com record's synchronisation delay");
    c.count = in.varint("a com record's count");
    if (version >= 5) {
      read_message_sizes(in, c);
    } else if (version >= 3) {
      read_listed_sizes(in, c);
    } else {
      c.bytes = in.varint("a com record's bytes");
    }
  }
  if (version >= 6) {
    r.counters.folded_contexts = in.varint("the folded context counter");
    const std::size_t count = in.count(kMinContextRecordBytes, "context records");
    const std::unordered_map<SiteId, ContextRecord> totals =
        count == 0 ? std::unordered_map<SiteId, ContextRecord>{} : per_site_totals(r);
    // Reserved and appended, not resized and overwritten: a rank may hold 100 000 contexts,
    // and zeroing them first was a pass of its own over memory.
    contexts.reserve(count);
    SiteIdDeltas sites;
    for (std::size_t i = 0; i < count; ++i) {
      ContextRecord c;
      const std::size_t start = in.offset();
      const std::uint64_t distance_and_derived = in.varint("a context record's parent distance");
      const std::uint64_t distance = distance_and_derived >> 1;
      if (distance == 0 || distance > i + 1) {
        ByteReader::fail_at(start, "a context record's parent does not come before it");
      }
      c.site = sites.read(in, "a context record's site");
      if ((distance_and_derived & 1) != 0) {
        if (const auto total = totals.find(c.site); total != totals.end()) {
          c = total->second;
          c.site = total->first;
        }
      } else {
        c.count = in.varint("a context record's count");
        c.time_ns = in.varint("a context record's time");
        c.untimed = in.varint("a context record's untimed activations");
        c.iterations = in.varint("a context record's iterations");
        c.sync_delay_ns = in.varint("a context record's synchronisation delay");
        c.bytes = in.varint("a context record's bytes");
      }
      c.parent = static_cast<std::uint32_t>(i + 1 - distance);
      c.folded = in.varint("a context record's folded activations");
      contexts.push_back(c);
    }
  }
  return r;
}

} // namespace

RankRecords read_rank_records(ByteReader& in, std::uint32_t version) {
  std::vector<ContextRecord> contexts;
  RankRecords r = read_records(in, version, contexts);
  r.contexts = std::move(contexts);
  return r;
}

RankRecords read_rank_records(ByteReader& in, std::uint32_t version,
                              const ProfileReader::ContextPieces& contexts) {
  ContextPieceWriter pieces(contexts);
  RankRecords r = read_records(in, version, pieces);
  pieces.flush();
  return r;
}

} // namespace vcmon::tables::detail

namespace vcmon::tables {

std::vector<std::byte> encode_rank_records(const RankRecords& records) {
  detail::ByteWriter out;
  detail::write_rank_records(out, records);
  return std::move(out.bytes());
}

RankRecords decode_rank_records(std::span<const std::byte> bytes) {
  detail::ByteReader in(bytes);
  RankRecords records = detail::read_rank_records(in, kProfileVersion);
  if (!in.at_end()) {
    in.fail("trailing garbage: " + std::to_string(in.remaining()) +
            " bytes after the rank records");
  }
  return records;
}

} // namespace vcmon::tables
