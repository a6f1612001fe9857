#include "SyntheticProfile.hpp"

#include "vcmon/tables/Profile.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace vcmon::tables {
namespace {

using ::testing::HasSubstr;
using testing::make_synthetic_profile;
using testing::ProfileShape;
using ::testing::StartsWith;

// The ProfileError message decode_profile gives for `bytes`, or "" if it decodes.
std::string decode_error(std::span<const std::byte> bytes) {
  try {
    decode_profile(bytes);
  } catch (const ProfileError& e) {
    return e.what();
  }
  return "";
}

Profile small_profile() {
  return make_synthetic_profile({.sites = 12, .ranks = 2, .partners = 1}, 7);
}

TEST(ProfileCodec, RoundTripOfManySitesAndRanksIsEqualInEveryField) {
  Profile p = make_synthetic_profile({.sites = 3000, .ranks = 16, .partners = 4}, 20261121);
  p.meta.partial = true;
  p.meta.partial_reason = "SIGTERM on rank 3";
  p.meta.activation_depth = 256;
  p.ranks[3].counters.folded_activations = 399'744;
  // Guard against a degenerate generator making the comparison vacuous.
  ASSERT_EQ(p.ranks.size(), 16u);
  ASSERT_GT(p.ranks[5].coms.size(), 1000u);
  ASSERT_GT(p.ranks[5].procs.size(), 500u);
  ASSERT_GT(p.ranks[5].loops.size(), 200u);

  const Profile decoded = decode_profile(encode_profile(p));
  EXPECT_EQ(decoded.meta, p.meta);
  EXPECT_EQ(decoded.graph, p.graph);
  EXPECT_EQ(decoded.ranks, p.ranks);
  EXPECT_EQ(decoded.graph.tables(), p.graph.tables());
}

TEST(ProfileCodec, HowSitesWereProbedRoundTrips) {
  Profile p;
  p.meta.ranks = 1;
  ProgramGraph& g = p.graph;
  const SiteId main_proc = g.add_site(SiteKind::Procedure, {"a.c", 9, 5}, "main", kNoSite, "main");
  const SiteId leaf =
      g.add_site(SiteKind::Procedure, {"a.c", 2, 8}, "sq", kNoSite, "sq", SiteProbing::Folded);
  const SiteId outer = g.add_site(SiteKind::Loop, {"a.c", 10, 3}, "for", main_proc);
  const SiteId inner =
      g.add_site(SiteKind::Loop, {"a.c", 11, 5}, "for", outer, "", SiteProbing::Counted);
  const SiteId call =
      g.add_site(SiteKind::Call, {"a.c", 12, 9}, "sq", inner, "sq", SiteProbing::Folded);
  p.ranks.push_back(RankRecords{});
  p.ranks[0].loops = {{outer, 100, 1, 3}, {inner, 0, 3, 12}};

  const Profile decoded = decode_profile(encode_profile(p));
  EXPECT_EQ(decoded.graph, p.graph);
  EXPECT_EQ(decoded.graph.site(leaf).probing, SiteProbing::Folded);
  EXPECT_EQ(decoded.graph.site(inner).probing, SiteProbing::Counted);
  EXPECT_EQ(decoded.graph.site(call).probing, SiteProbing::Folded);
  EXPECT_EQ(decoded.graph.site(outer).probing, SiteProbing::Timed);
  EXPECT_EQ(decoded.graph.callee_of(call), leaf);
  EXPECT_THROW(g.set_probing(main_proc, SiteProbing::Counted), std::invalid_argument);
  EXPECT_THROW(g.set_probing(outer, SiteProbing::Folded), std::invalid_argument);
}

TEST(ProfileCodec, RankRecordsRoundTripOnTheirOwn) {
  const Profile p = make_synthetic_profile({.sites = 500, .ranks = 3, .partners = 2}, 99);
  for (const RankRecords& r : p.ranks) {
    EXPECT_EQ(decode_rank_records(encode_rank_records(r)), r);
  }
  RankRecords extremes;
  extremes.rank = 2'000'000'000;
  extremes.clock_offset_ns = INT64_MIN;
  extremes.virtual_ns = UINT64_MAX;
  extremes.procs = {{kNoSite - 1, kNoSite, UINT64_MAX, 1}, {0, kNoSite - 1, 0, 0}};
  extremes.coms = {{7, ComRecord::kCollective, 1, 2, 3, 4}};
  EXPECT_EQ(decode_rank_records(encode_rank_records(extremes)), extremes);
}

// A com record stores only the message fields that do not follow from the others: none for a
// record without messages, the size alone for `count` messages of one size.
TEST(ProfileCodec, MessageSizesThatFollowFromTheCountAreNotStored) {
  ComRecord none{3, 1, 40, 7, 5};
  ComRecord uniform = none;
  uniform.bytes = 5 * 4096;
  uniform.sizes.min_bytes = uniform.sizes.max_bytes = 4096;
  uniform.sizes.classes[size_class(4096)] = 5;
  ComRecord empty_messages = none; // MPI_Send of 0 elements: messages, of no bytes
  empty_messages.sizes.classes[0] = 5;
  ComRecord fewer_messages = uniform; // a completion call among them moved nothing
  fewer_messages.count = 6;
  ComRecord two_sizes = uniform;
  two_sizes.bytes += 4096 - 8;
  two_sizes.sizes.min_bytes = 8;
  two_sizes.sizes.classes[size_class(8)] = 1;
  two_sizes.count = 6;
  const auto encoded_size = [](const ComRecord& com) {
    RankRecords r;
    r.coms = {com};
    const RankRecords back = decode_rank_records(encode_rank_records(r));
    EXPECT_EQ(back, r);
    return encode_rank_records(r).size();
  };
  const std::size_t without_messages = encoded_size(none);
  EXPECT_EQ(encoded_size(uniform), without_messages + 2) << "the size, 4096, in two bytes";
  EXPECT_EQ(encoded_size(empty_messages), without_messages + 1);
  // Listed in full: the total, the smallest and largest, and 8 size classes.
  EXPECT_GE(encoded_size(fewer_messages), without_messages + 12);
  EXPECT_GE(encoded_size(two_sizes), without_messages + 12);

  ComRecord long_run = uniform; // the same statement a million times more often
  long_run.count *= 1'000'000;
  long_run.bytes *= 1'000'000;
  long_run.sizes.classes[size_class(4096)] = long_run.count;
  EXPECT_EQ(encoded_size(long_run) - encoded_size(uniform), 3u) << "only the count grows";
}

// A context that is its site's only one and says what the site's records say is stored as one
// bit (format 6); one that says more keeps its fields. Both read back equal.
TEST(ProfileCodec, ContextsDerivableFromPerSiteRecordsRoundTrip) {
  RankRecords r;
  r.procs = {{5, 2, 700, 3, 1}, {5, kNoSite, 100, 1, 0}};
  r.loops = {{7, 400, 4, 40}};
  ComRecord& com = r.coms.emplace_back(ComRecord{.comm = 9,
                                                 .partner = 1,
                                                 .transmission_ns = 10,
                                                 .sync_delay_ns = 20,
                                                 .count = 2,
                                                 .bytes = 64});
  com.sizes.min_bytes = com.sizes.max_bytes = 32;
  com.sizes.classes[size_class(32)] = 2;
  r.contexts = {
      {.parent = 0, .site = 5, .count = 4, .time_ns = 800, .untimed = 1}, // proc 5's sums
      {.parent = 1, .site = 7, .count = 4, .time_ns = 400, .iterations = 40, .folded = 2},
      {.parent = 2, .site = 9, .count = 2, .time_ns = 10, .sync_delay_ns = 20, .bytes = 64},
      {.parent = 1, .site = 2, .count = 5}}; // call site 2 activated its callee 3 times, not 5
  const std::vector<std::byte> derived = encode_rank_records(r);
  EXPECT_EQ(decode_rank_records(derived), r);
  RankRecords listed = r;
  for (ContextRecord& c : listed.contexts) {
    c.time_ns += 1; // no longer what the per-site records say
  }
  const std::vector<std::byte> all_listed = encode_rank_records(listed);
  EXPECT_EQ(decode_rank_records(all_listed), listed);
  EXPECT_GE(all_listed.size(), derived.size() + 3 * 5) << "expected 5 fields fewer, 3 times";
}

TEST(ProfileCodec, EncoderRefusesRecordsThatDoNotMatchTheGraph) {
  Profile p = small_profile();
  p.ranks[0].loops.push_back({0, 1, 1, 1}); // site 0 is main, a procedure
  EXPECT_THROW(encode_profile(p), std::invalid_argument);
  p = small_profile();
  p.ranks[1].coms.push_back({p.ranks[1].coms.at(0).comm, 2, 1, 1, 1, 1}); // only ranks 0 and 1
  EXPECT_THROW(encode_profile(p), std::invalid_argument);
  p = small_profile();
  std::swap(p.ranks[0], p.ranks[1]);
  EXPECT_THROW(encode_profile(p), std::invalid_argument);
  // Message sizes that contradict themselves or the count.
  p = small_profile();
  ComRecord& com = p.ranks[0].coms.at(0);
  com.sizes.classes = {};
  com.sizes.classes[size_class(100)] = com.count + 1; // more messages than operations
  com.sizes.min_bytes = com.sizes.max_bytes = 100;
  EXPECT_THROW(encode_profile(p), std::invalid_argument);
  com.sizes.classes[size_class(100)] = com.count;
  com.sizes.max_bytes = 5000; // its class holds no message
  EXPECT_THROW(encode_profile(p), std::invalid_argument);
  com.sizes.max_bytes = 200;
  EXPECT_NO_THROW(encode_profile(p));
}

TEST(ProfileCodec, TruncationAtEveryOffsetIsAProfileError) {
  const std::vector<std::byte> bytes = encode_profile(small_profile());
  ASSERT_GT(bytes.size(), 100u);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_THAT(decode_error(std::span(bytes).first(n)), StartsWith("profile truncated at byte "))
        << "prefix of " << n << " bytes";
  }
}

TEST(ProfileCodec, EveryCorruptedByteIsAProfileError) {
  const std::vector<std::byte> good = encode_profile(small_profile());
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (std::uint8_t mask : {0x01, 0x80, 0xff}) {
      std::vector<std::byte> bad = good;
      bad[i] ^= std::byte{mask};
      EXPECT_NE(decode_error(bad), "") << "byte " << i << " xor " << int{mask};
    }
  }
  std::vector<std::byte> bad = good;
  bad.back() ^= std::byte{0x10};
  // The last byte is the last rank's: its own checksum finds it.
  EXPECT_EQ(decode_error(bad), "checksum mismatch: rank 1's records are corrupt");
}

TEST(ProfileCodec, ForeignFilesAreNotProfiles) {
  const std::string png = "\x89PNG\r\n\x1a\n and more";
  EXPECT_EQ(decode_error(std::as_bytes(std::span(png))), "not a vcmon profile (bad magic)");
  const std::string text = "VCMON";
  EXPECT_THAT(decode_error(std::as_bytes(std::span(text))), StartsWith("profile truncated"));
  const std::string almost = "VCMONPRX........................";
  EXPECT_EQ(decode_error(std::as_bytes(std::span(almost))), "not a vcmon profile (bad magic)");
}

TEST(ProfileCodec, NewerVersionIsRejectedByNumber) {
  std::vector<std::byte> bytes = encode_profile(small_profile());
  bytes[8] = std::byte{8}; // the version follows the 8-byte magic, little-endian
  EXPECT_EQ(decode_error(bytes),
            "profile version 8 is newer than this vcmon (" + std::to_string(kProfileVersion) + ")");
  bytes[8] = std::byte{0};
  EXPECT_EQ(decode_error(bytes), "profile version 0 does not exist");
}

TEST(ProfileCodec, TrailingGarbageIsRejected) {
  std::vector<std::byte> bytes = encode_profile(small_profile());
  bytes.push_back(std::byte{0});
  EXPECT_THAT(decode_error(bytes), StartsWith("trailing garbage: 1 bytes after the payload"));
  std::vector<std::byte> rank = encode_rank_records(small_profile().ranks[0]);
  rank.push_back(std::byte{0});
  EXPECT_THROW(decode_rank_records(rank), ProfileError);
}

TEST(ProfileCodec, RankRecordTruncationAtEveryOffsetIsAProfileError) {
  const std::vector<std::byte> bytes = encode_rank_records(small_profile().ranks[1]);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_THROW(decode_rank_records(std::span(bytes).first(n)), ProfileError) << n << " bytes";
  }
}

TEST(ProfileCodec, SizeGrowsWithSitesAndRanksNotWithRunLength) {
  const Profile short_run = make_synthetic_profile({.sites = 400, .ranks = 4, .partners = 4}, 5);
  Profile long_run = short_run; // the same program run a million times longer
  for (RankRecords& r : long_run.ranks) {
    for (ProcRecord& p : r.procs) {
      p.count *= 1'000'000;
      p.time_ns *= 1'000'000;
    }
    for (ComRecord& c : r.coms) {
      c.count *= 1'000'000;
      c.bytes *= 1'000'000;
      for (std::uint64_t& messages : c.sizes.classes) {
        messages *= 1'000'000;
      }
    }
  }
  const auto records = [](const Profile& p) {
    std::size_t n = 0;
    for (const RankRecords& r : p.ranks) {
      n += r.procs.size() + r.loops.size() + r.coms.size();
    }
    return n;
  };
  const std::size_t short_size = encode_profile(short_run).size();
  const std::size_t long_size = encode_profile(long_run).size();
  // A factor of 10^6 costs at most three more varint bytes in each of the three scaled fields.
  EXPECT_LE(long_size, short_size + 9 * records(long_run));
  const Profile doubled = make_synthetic_profile({.sites = 400, .ranks = 8, .partners = 4}, 5);
  EXPECT_GT(encode_profile(doubled).size(), short_size * 3 / 2) << "ranks x2 -> size ~x2";
}

} // namespace
} // namespace vcmon::tables
