// Payloads that pass the header's checks (valid framing and checksum) but lie inside, and
// version-6 rank indices that lie with valid checksums: the decoder must reject each with a
// ProfileError, never crash or allocate what a count or size claims.
#include "ByteWriter.hpp"
#include "ProfileHeader.hpp"
#include "RankRecordsCodec.hpp"
#include "SyntheticProfile.hpp"

#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileParts.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace vcmon::tables {
namespace {

using detail::ByteWriter;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// A profile of two sites (procedure "main", a loop in it) and one rank, written field by
// field so that each test can replace one part with something hostile.
struct HandMadeProfile {
  std::function<void(ByteWriter&)> strings = [](ByteWriter& w) {
    w.varint(3);
    w.string("");
    w.string("main.c");
    w.string("main");
  };
  std::function<void(ByteWriter&)> metadata = [](ByteWriter& w) {
    w.varint(0); // command: ""
    w.zigzag(1); // ranks
    w.varint(0); // no hosts
    w.zigzag(0); // start
    w.zigzag(0); // end
    w.varint(0); // clock source: ""
    w.f64(1.0);  // ticks per ns
    w.varint(0); // probe cost
    w.u8(0);     // not partial
    w.varint(0); // partial reason: ""
    w.varint(0); // activation depth
  };
  std::function<void(ByteWriter&)> graph = [](ByteWriter& w) {
    w.varint(2);
    site(w, SiteKind::Procedure, 0);
    site(w, SiteKind::Loop, 1);
  };
  RankRecords rank = [] {
    RankRecords r;
    r.procs = {{0, kNoSite, 10, 1}};
    r.loops = {{1, 5, 1, 3}};
    return r;
  }();
  std::uint8_t section_ids[4] = {1, 2, 3, 4};
  // The ranks section written by hand instead of from `rank` (empty: from `rank`).
  std::function<void(ByteWriter&)> rank_bytes;

  static void site(ByteWriter& w, SiteKind kind, std::uint64_t parent_distance) {
    w.u8(static_cast<std::uint8_t>(kind));
    w.varint(parent_distance);
    w.varint(1); // file
    w.varint(1); // line
    w.varint(1); // column
    w.varint(2); // name
    w.varint(0); // symbol
  }

  std::vector<std::byte> bytes() const {
    ByteWriter payload;
    const auto section = [&](std::uint8_t id, const std::function<void(ByteWriter&)>& body) {
      ByteWriter w;
      body(w);
      payload.u8(id);
      payload.varint(w.bytes().size());
      payload.append(w.bytes());
    };
    section(section_ids[0], strings);
    section(section_ids[1], metadata);
    section(section_ids[2], graph);
    const std::function<void(ByteWriter&)> from_rank = [&](ByteWriter& w) {
      ByteWriter r; // in the last whole-payload layout, as the file is framed
      detail::write_rank_records(r, rank, detail::kLastWholePayloadVersion);
      w.varint(1);
      w.varint(r.bytes().size());
      w.append(r.bytes());
    };
    section(section_ids[3], rank_bytes ? rank_bytes : from_rank);
    return detail::frame_profile_payload(payload.bytes(), detail::kLastWholePayloadVersion);
  }
};

std::string decode_error(std::span<const std::byte> bytes);

std::string decode_error(const HandMadeProfile& p) {
  return decode_error(p.bytes());
}

TEST(HostileProfile, TheHandMadeProfileItselfDecodes) {
  const Profile p = decode_profile(HandMadeProfile{}.bytes());
  ASSERT_EQ(p.graph.size(), 2u);
  EXPECT_EQ(p.graph.site(1).parent, 0u);
  EXPECT_EQ(p.graph.site(0).pos.file, "main.c");
  EXPECT_EQ(p.ranks.at(0).loops.at(0).iterations, 3u);
}

TEST(HostileProfile, HugeCountsAreRejectedBeforeAllocating) {
  HandMadeProfile p;
  p.strings = [](ByteWriter& w) { w.varint(std::uint64_t{1} << 60); };
  EXPECT_THAT(decode_error(p), HasSubstr("1152921504606846976 strings announced"));
  p = {};
  p.graph = [](ByteWriter& w) { w.varint(4'000'000'000); };
  EXPECT_THAT(decode_error(p), HasSubstr("4000000000 sites announced"));
  p = {};
  p.metadata = [](ByteWriter& w) {
    w.varint(0);
    w.zigzag(1);
    w.varint(UINT64_MAX);
  };
  EXPECT_THAT(decode_error(p), HasSubstr("hosts announced"));
}

TEST(HostileProfile, BrokenSiteTreesAreRejected) {
  HandMadeProfile p;
  p.graph = [](ByteWriter& w) {
    w.varint(2);
    HandMadeProfile::site(w, SiteKind::Procedure, 0);
    HandMadeProfile::site(w, SiteKind::Loop, 2);
  };
  EXPECT_THAT(decode_error(p), HasSubstr("site 1 has a parent before site 0"));
  p.graph = [](ByteWriter& w) {
    w.varint(2);
    HandMadeProfile::site(w, SiteKind::Comm, 0);
    HandMadeProfile::site(w, SiteKind::Loop, 1);
  };
  EXPECT_THAT(decode_error(p), HasSubstr("is a comm, not a procedure or loop"));
  p.graph = [](ByteWriter& w) {
    w.varint(1);
    HandMadeProfile::site(w, static_cast<SiteKind>(4), 0); // bits 2-3: a counted procedure
  };
  EXPECT_THAT(decode_error(p), HasSubstr("site 0 is a procedure and cannot be counted"));
  p.graph = [](ByteWriter& w) {
    w.varint(1);
    HandMadeProfile::site(w, static_cast<SiteKind>(0x10), 0);
  };
  EXPECT_THAT(decode_error(p), HasSubstr("site 0 has unknown probing 4"));
}

TEST(HostileProfile, RecordsMustNameSitesOfTheirKind) {
  HandMadeProfile p;
  p.rank.procs = {{1, kNoSite, 1, 1}};
  EXPECT_EQ(decode_error(p),
            "corrupt profile: rank 0: proc record: site 1 is a loop, not a procedure");
  p = {};
  p.rank.loops = {{9, 1, 1, 1}};
  EXPECT_THAT(decode_error(p), HasSubstr("site 9 does not exist"));
  p = {};
  p.rank.rank = 1;
  EXPECT_THAT(decode_error(p), HasSubstr("rank 1 is outside the 1-rank run"));
}

// Contexts come parents first and name sites of the graph (format 6).
TEST(HostileProfile, ContextRecordsNeedEarlierParentsAndRealSites) {
  RankRecords r;
  r.contexts = {{.parent = 0, .site = 0, .count = 1}, {.parent = 1, .site = 1, .count = 3}};
  EXPECT_EQ(decode_rank_records(encode_rank_records(r)), r);
  r.contexts[1].parent = 2; // itself
  try {
    decode_rank_records(encode_rank_records(r));
    ADD_FAILURE() << "expected a context that is its own parent to be rejected";
  } catch (const ProfileError& e) {
    EXPECT_THAT(e.what(), HasSubstr("a context record's parent does not come before it"));
  }
  const auto refusal = [](std::vector<ContextRecord> contexts) -> std::string {
    Profile p = decode_profile(HandMadeProfile{}.bytes());
    p.ranks.at(0).contexts = std::move(contexts);
    try {
      encode_profile(p);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_THAT(refusal({{.parent = 0, .site = 9}}),
              HasSubstr("rank 0: context record 0: site 9 does not exist"));
  EXPECT_THAT(refusal({{.parent = 0, .site = 0, .count = 1, .untimed = 2}}),
              HasSubstr("context record 0: 2 untimed activations of 1"));
}

TEST(HostileProfile, StringIndicesSectionsAndFlagsAreChecked) {
  HandMadeProfile p;
  p.graph = [](ByteWriter& w) {
    w.varint(1);
    w.u8(0);
    w.varint(0);
    w.varint(1);
    w.varint(1);
    w.varint(1);
    w.varint(3); // name: the table has 3 strings
    w.varint(0);
  };
  EXPECT_THAT(decode_error(p), HasSubstr("string 3 does not exist (the table has 3)"));
  p = {};
  p.section_ids[2] = 9;
  EXPECT_THAT(decode_error(p), HasSubstr("expected the graph section (id 3), found id 9"));
  p = {};
  p.metadata = [m = p.metadata](ByteWriter& w) {
    m(w);
    w.u8(0); // one byte more than the metadata has
  };
  EXPECT_THAT(decode_error(p), HasSubstr("1 unread bytes at the end of the metadata section"));
}

TEST(HostileProfile, ComRecordMessageSizesAreChecked) {
  const auto with_sizes = [](std::uint8_t layout, std::uint64_t count, std::uint64_t size) {
    HandMadeProfile p;
    p.graph = [](ByteWriter& w) {
      w.varint(2);
      HandMadeProfile::site(w, SiteKind::Procedure, 0);
      HandMadeProfile::site(w, SiteKind::Comm, 1);
    };
    p.rank.loops.clear();
    p.section_ids[3] = 4;
    p.rank_bytes = [=](ByteWriter& w) {
      ByteWriter r;
      r.zigzag(0);                   // rank
      r.varint(0);                   // host: ""
      for (int i = 0; i < 11; ++i) { // times and counters
        r.varint(0);
      }
      r.varint(0); // no proc records
      r.varint(0); // no loop records
      r.varint(1);
      r.zigzag(1); // Δsite: the statement
      r.zigzag(0); // partner 0
      r.varint(1); // transmission
      r.varint(1); // sync delay
      r.varint(count);
      r.u8(layout);
      r.varint(size);
      w.varint(1);
      w.varint(r.bytes().size());
      w.append(r.bytes());
    };
    return p;
  };
  const Profile fine = decode_profile(with_sizes(1, 3, 1000).bytes());
  EXPECT_EQ(fine.ranks.at(0).coms.at(0).bytes, 3000u);
  EXPECT_EQ(fine.ranks.at(0).coms.at(0).sizes.messages(), 3u);
  EXPECT_THAT(decode_error(with_sizes(1, 3, UINT64_MAX / 2)),
              HasSubstr("a com record's messages overflow 64 bits of bytes"));
  EXPECT_THAT(decode_error(with_sizes(9, 3, 1000)),
              HasSubstr("a com record's message sizes have an unknown layout"));
}

TEST(HostileProfile, OverlongVarintsAreRejected) {
  HandMadeProfile p;
  p.strings = [](ByteWriter& w) {
    for (int i = 0; i < 10; ++i) {
      w.u8(0xff);
    }
    w.u8(0x01);
  };
  EXPECT_THAT(decode_error(p), HasSubstr("does not fit in 64 bits"));
}

// A version-6 profile of three ranks whose rank index each test may falsify; the index's own
// checksum is recomputed, so that the reader's checks of the entries are what must stop it.
struct HandMadeIndex {
  struct Entry {
    std::uint32_t rank;
    std::uint64_t offset;
    std::uint64_t size;
    std::uint32_t checksum;
  };
  Profile profile;
  std::vector<std::byte> head = encode_profile_head(profile.meta, profile.graph);
  std::vector<std::vector<std::byte>> records;
  std::vector<Entry> entries;
  std::uint64_t count = 3;

  HandMadeIndex()
      : HandMadeIndex(
            testing::make_synthetic_profile({.sites = 12, .ranks = 3, .partners = 1}, 5)) {}
  // The index of `records_of`'s ranks, encoded as they are (the encoder checks nothing).
  explicit HandMadeIndex(Profile records_of) : profile(std::move(records_of)) {
    std::uint64_t offset = head.size() + rank_index_size(3);
    for (const RankRecords& r : profile.ranks) {
      records.push_back(encode_rank_records(r));
      const RankSectionSize size = rank_section_size(r.rank, records.back());
      entries.push_back({static_cast<std::uint32_t>(r.rank), offset, size.size, size.checksum});
      offset += size.size;
    }
  }

  std::vector<std::byte> bytes() const {
    ByteWriter index;
    index.u8(5);
    index.fixed_u64(count);
    for (const Entry& e : entries) {
      index.fixed_u32(e.rank);
      index.fixed_u64(e.offset);
      index.fixed_u64(e.size);
      index.fixed_u32(e.checksum);
    }
    index.fixed_u32(detail::crc32(index.bytes()));
    std::vector<std::byte> file = head;
    file.insert(file.end(), index.bytes().begin(), index.bytes().end());
    for (const std::vector<std::byte>& r : records) {
      file.insert(file.end(), r.begin(), r.end());
    }
    return file;
  }
};

// The error of decoding `bytes` whole, after checking that reading each rank with its
// contexts given a piece at a time (ProfileReader::read_rank_at) ends in the same one.
std::string decode_error(std::span<const std::byte> bytes) {
  std::string whole;
  try {
    decode_profile(bytes);
  } catch (const ProfileError& e) {
    whole = e.what();
  }
  std::string in_pieces;
  try {
    const ProfileReader reader(bytes);
    for (std::size_t i = 0; i < reader.rank_count(); ++i) {
      reader.read_rank_at(i, [](std::span<const ContextRecord>) {});
    }
  } catch (const ProfileError& e) {
    in_pieces = e.what();
  }
  EXPECT_EQ(in_pieces, whole) << "the contexts given a piece at a time";
  return whole;
}

TEST(HostileRankIndex, TheHandMadeIndexItselfDecodes) {
  const HandMadeIndex p;
  EXPECT_EQ(decode_profile(p.bytes()), p.profile);
  EXPECT_EQ(p.bytes(), encode_profile(p.profile)) << "the same layout as the writer's";
}

TEST(HostileRankIndex, SectionsOutsideTheFileAreRejected) {
  HandMadeIndex p;
  p.entries[2].size += 1000;
  const std::size_t size = p.bytes().size();
  EXPECT_EQ(decode_error(p.bytes()), "profile truncated at byte " + std::to_string(size) +
                                         ": the rank index places rank 2's records up to byte " +
                                         std::to_string(size + 1000));
  p = {};
  p.entries[1].offset = 1'000'000;
  EXPECT_THAT(decode_error(p.bytes()),
              HasSubstr("rank 1's records at byte 1000000 lie outside the " + std::to_string(size) +
                        "-byte file"));
}

TEST(HostileRankIndex, OverlapsAndGapsAreRejected) {
  HandMadeIndex p;
  p.entries[1].offset -= 5;
  p.entries[1].size += 5;
  EXPECT_THAT(decode_error(p.bytes()),
              HasSubstr("rank index entry 1: rank 1's records at byte " +
                        std::to_string(p.entries[1].offset) + " overlap what ends at byte " +
                        std::to_string(p.entries[1].offset + 5)));
  p = {};
  p.entries[0].offset -= 1; // into the index itself
  EXPECT_THAT(decode_error(p.bytes()), HasSubstr("rank 0's records at byte"));
  EXPECT_THAT(decode_error(p.bytes()), HasSubstr("overlap what ends at byte"));
  p = {};
  p.entries[2].offset += 3;
  p.entries[2].size -= 3;
  EXPECT_THAT(decode_error(p.bytes()), HasSubstr("leave a gap of 3 bytes"));
}

TEST(HostileRankIndex, SizesThatOverflowAreRejected) {
  HandMadeIndex p;
  p.entries[1].size = UINT64_MAX - 10;
  EXPECT_THAT(decode_error(p.bytes()), HasSubstr("bytes end beyond 2^64"));
  p = {};
  p.count = std::uint64_t{1} << 60;
  EXPECT_THAT(decode_error(p.bytes()),
              HasSubstr("the rank index announces 1152921504606846976 ranks"));
}

TEST(HostileRankIndex, RanksMustBeSortedWithinTheRunAndMatchTheirRecords) {
  HandMadeIndex p;
  std::swap(p.entries[0].rank, p.entries[1].rank);
  EXPECT_THAT(decode_error(p.bytes()), HasSubstr("rank 0 follows rank 1: ranks must be sorted"));
  p = {};
  p.entries[2].rank = 7;
  EXPECT_THAT(decode_error(p.bytes()), HasSubstr("rank 7 is outside the 3-rank run"));
  p = {};
  p.records[2] = encode_rank_records(p.profile.ranks[1]); // the last rank's: no offset moves
  p.entries[2].size = p.records[2].size();
  p.entries[2].checksum = rank_section_size(1, p.records[2]).checksum;
  EXPECT_THAT(decode_error(p.bytes()),
              HasSubstr("the rank index says rank 2's records are at byte"));
}

TEST(HostileRankIndex, AContextProblemIsReportedAfterTheRankOthers) {
  Profile profile = HandMadeIndex{}.profile;
  RankRecords& r = profile.ranks[1];
  ASSERT_FALSE(r.contexts.empty());
  r.contexts.back().untimed = r.contexts.back().count + 1;
  EXPECT_THAT(decode_error(HandMadeIndex(profile).bytes()),
              HasSubstr("rank 1: context record " + std::to_string(r.contexts.size() - 1) + ": "));
  ASSERT_FALSE(r.coms.empty());
  r.coms.front().partner = 9;
  EXPECT_THAT(decode_error(HandMadeIndex(profile).bytes()),
              HasSubstr("rank 1: com record of site " + std::to_string(r.coms.front().comm) +
                        ": partner 9 is not a rank of the 3-rank run"));
}

TEST(HostileRankIndex, ChecksumsOfIndexAndRanksAreChecked) {
  HandMadeIndex p;
  std::vector<std::byte> bytes = p.bytes();
  bytes[p.head.size() + 10] ^= std::byte{1}; // in entry 0
  EXPECT_EQ(decode_error(bytes), "checksum mismatch: the profile's rank index is corrupt");
  p.entries[1].checksum ^= 1;
  EXPECT_EQ(decode_error(p.bytes()), "checksum mismatch: rank 1's records are corrupt");
  bytes = HandMadeIndex{}.bytes();
  bytes.push_back(std::byte{0});
  EXPECT_THAT(decode_error(bytes), StartsWith("trailing garbage: 1 bytes after the payload"));
}

} // namespace
} // namespace vcmon::tables
