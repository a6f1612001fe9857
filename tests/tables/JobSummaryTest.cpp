// The job's summary (vcmon/tables/JobSummary.hpp): reduced over a binomial tree of ranks, as the
// runtime reduces it, it is the summary of the ranks added one by one; it reads back as written
// from a profile's summary section, and a summary section that lies is refused with a message
// (docs/profile-format.md, "Summary").
#include "ByteWriter.hpp"
#include "ProfileHeader.hpp"
#include "ProfileSections.hpp"
#include "SummaryTree.hpp"
#include "SyntheticProfile.hpp"

#include "vcmon/tables/JobSummary.hpp"
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileParts.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace vcmon::tables {
namespace {

using ::testing::HasSubstr;

// Every rank of `profile` added in order, both passes.
JobSummary one_by_one(const Profile& profile) {
  SummaryReduction reduction(profile.graph, profile.meta.ranks);
  for (const RankRecords& r : profile.ranks) {
    EXPECT_EQ(reduction.add_rank(r), std::nullopt);
  }
  const auto needed = reduction.other_partners_needed();
  reduction.begin_other_partners(needed);
  for (const RankRecords& r : profile.ranks) {
    reduction.add_other_partners(r);
  }
  return reduction.whole_job();
}

// Checks that each statement of `summary` with more than kListedPartners partners lists 16 and
// carries each rank's time with the others, summed by hand from `profile`'s records.
void expect_the_others_time(const Profile& profile, const JobSummary& summary) {
  std::size_t with_others = 0;
  for (const JobSummary::Statement& s : summary.statements) {
    ASSERT_EQ(s.other_partners.has_value(), s.partner_count > kListedPartners);
    ASSERT_EQ(s.partners.size(), std::min<std::size_t>(s.partner_count, kListedPartners));
    if (!s.other_partners) {
      continue;
    }
    ++with_others;
    std::vector<std::int32_t> listed;
    for (const JobSummary::Partner& p : s.partners) {
      listed.push_back(p.partner);
    }
    Spread expected;
    for (const RankRecords& r : profile.ranks) {
      double time = 0;
      bool holds = false;
      for (const ComRecord& com : r.coms) {
        if (com.comm == s.comm && !std::binary_search(listed.begin(), listed.end(), com.partner)) {
          time += static_cast<double>(com.transmission_ns + com.sync_delay_ns);
          holds = true;
        }
      }
      if (holds) {
        expected.add(r.rank, time);
      }
    }
    EXPECT_EQ(s.other_partners->time, expected) << "site " << s.comm;
  }
  EXPECT_GT(with_others, 0u);
}

TEST(JobSummary, ReducedUpABinomialTreeIsTheRanksAddedOneByOne) {
  for (const testing::ProfileShape& shape :
       {testing::ProfileShape{.sites = 60, .ranks = 7, .partners = 2},
        testing::ProfileShape{.sites = 40, .ranks = 24, .partners = 20},
        // More partners a statement than are searched: hashed while reduced.
        testing::ProfileShape{.sites = 20, .ranks = 48, .partners = 40},
        testing::ProfileShape{.sites = 30, .ranks = 1, .partners = 1}}) {
    const Profile profile = testing::make_synthetic_profile(shape, 11);
    const JobSummary expected = one_by_one(profile);
    EXPECT_EQ(testing::reduce_up_a_binomial_tree(profile), expected) << shape.ranks << " ranks";
    EXPECT_EQ(testing::reduce_up_a_binomial_tree(profile, PartnerSums::ByOwner), expected)
        << shape.ranks << " ranks, partners reduced by owner";
    EXPECT_EQ(expected.ranks.size(), profile.ranks.size());
    EXPECT_FALSE(expected.contexts.empty());
    const std::vector<std::byte> encoded = encode_job_summary(expected);
    EXPECT_EQ(decode_job_summary(encoded, 0, profile.graph, shape.ranks), expected);
    // Encoded in pieces, as the runtime writes it into the file: the same bytes, size and CRC.
    std::vector<std::byte> joined;
    std::size_t pieces = 0;
    encode_job_summary(expected, 100, [&](std::span<const std::byte> piece) {
      EXPECT_LE(piece.size(), 100u);
      joined.insert(joined.end(), piece.begin(), piece.end());
      ++pieces;
    });
    EXPECT_EQ(joined, encoded);
    EXPECT_EQ(pieces, (encoded.size() + 99) / 100);
    const SummarySectionSize size = summary_section_size(expected);
    EXPECT_EQ(size.size, encoded.size());
    EXPECT_EQ(size.checksum, summary_section_size(encoded).checksum);
    // Handed out one at a time, the statements are the same and the summary holds none.
    std::vector<JobSummary::Statement> handed;
    JobSummary rest =
        decode_job_summary(encoded, 0, profile.graph, shape.ranks, SummaryCompleteness::WholeJob,
                           [&](const JobSummary::Statement& s) { handed.push_back(s); });
    EXPECT_TRUE(rest.statements.empty());
    rest.statements = handed;
    EXPECT_EQ(rest, expected);
  }
}

TEST(JobSummary, PiecesHoldEachStatementOnceAndAboutTheirShareOfPartners) {
  const Profile profile =
      testing::make_synthetic_profile({.sites = 60, .ranks = 24, .partners = 20}, 5);
  const JobSummary whole = one_by_one(profile);
  const std::vector<JobSummary> pieces = job_summary_pieces(JobSummary(whole), 40);
  ASSERT_GT(pieces.size(), 2u);
  JobSummary joined = pieces.front();
  for (std::size_t i = 1; i < pieces.size(); ++i) {
    JobSummary rest = pieces[i];
    rest.statements.clear();
    EXPECT_EQ(rest, JobSummary{}) << "piece " << i << " holds more than statements";
    std::size_t partners = 0;
    for (const JobSummary::Statement& s : pieces[i].statements) {
      partners += s.partners.size() + 1;
    }
    EXPECT_LE(partners, 40 + kListedPartners + 1) << "piece " << i;
    joined.statements.insert(joined.statements.end(), pieces[i].statements.begin(),
                             pieces[i].statements.end());
  }
  EXPECT_EQ(joined, whole);
}

TEST(JobSummary, APartialAbsorbedAsReadIsRefusedWhenItLies) {
  const Profile profile = testing::make_synthetic_profile({.sites = 40, .ranks = 4}, 3);
  SummaryReduction later(profile.graph, 4);
  ASSERT_EQ(later.add_rank(profile.ranks[3]), std::nullopt);
  std::vector<std::byte> sent = encode_job_summary(later.summary());
  sent.resize(sent.size() - 3);
  SummaryReduction reduction(profile.graph, 4);
  ASSERT_EQ(reduction.add_rank(profile.ranks[0]), std::nullopt);
  EXPECT_THROW(reduction.absorb_encoded(sent), ProfileError);
  // A summary of other ranks absorbs as read what it absorbs decoded.
  sent = encode_job_summary(later.summary());
  SummaryReduction decoded(profile.graph, 4);
  ASSERT_EQ(decoded.add_rank(profile.ranks[0]), std::nullopt);
  decoded.absorb(decode_job_summary(sent, 0, profile.graph, 4, SummaryCompleteness::Partial));
  SummaryReduction as_read(profile.graph, 4);
  ASSERT_EQ(as_read.add_rank(profile.ranks[0]), std::nullopt);
  as_read.absorb_encoded(sent);
  EXPECT_EQ(std::move(as_read).summary(), std::move(decoded).summary());
}

TEST(JobSummary, TiesInTimeListTheSamePartnersEitherWay) {
  Profile profile = testing::make_synthetic_profile({.sites = 40, .ranks = 24, .partners = 20}, 7);
  for (RankRecords& r : profile.ranks) {
    for (ComRecord& com : r.coms) {
      com.transmission_ns = 1000;
      com.sync_delay_ns = 0;
    }
  }
  const JobSummary summary = one_by_one(profile);
  // The second pass takes the partners listed in the end, ties broken by partner both times.
  expect_the_others_time(profile, summary);
  EXPECT_EQ(testing::reduce_up_a_binomial_tree(profile, PartnerSums::ByOwner), summary);
}

TEST(JobSummary, ReducedByOwnerEachStepKeepsOnlyTheListedPartners) {
  const Profile profile =
      testing::make_synthetic_profile({.sites = 40, .ranks = 24, .partners = 20}, 11);
  std::vector<SummaryReduction> ranks;
  for (const RankRecords& r : profile.ranks) {
    ASSERT_EQ(ranks.emplace_back(profile.graph, 24, PartnerSums::ByOwner).add_rank(r),
              std::nullopt);
    for (const PartnerShare& share : SummaryReduction::partner_shares(r)) {
      ASSERT_EQ(share.rank, r.rank);
    }
  }
  const auto owned = testing::shares_by_owner(profile);
  for (std::int32_t rank = 0; rank < 24; ++rank) {
    ASSERT_EQ(ranks[rank].add_partner_shares(rank, owned[rank]), std::nullopt);
  }
  for (std::int32_t rank = 1; rank < 24; ++rank) {
    ranks[0].absorb(std::move(ranks[rank]));
  }
  std::size_t dropping = 0;
  for (const JobSummary::Statement& s : ranks[0].summary().statements) {
    ASSERT_LE(s.partners.size(), kListedPartners + 1) << "site " << s.comm;
    dropping += s.partner_count > s.partners.size() ? 1 : 0;
  }
  EXPECT_GT(dropping, 0u);
  EXPECT_EQ(ranks[0].add_partner_shares(3, owned[2]), "rank 3 was sent the sums of rank " +
                                                          std::to_string(owned[2].front().rank) +
                                                          " with partner 2");
}

TEST(JobSummary, StatementsWithManyPartnersListSixteenAndCarryTheOthersTime) {
  const Profile profile =
      testing::make_synthetic_profile({.sites = 40, .ranks = 24, .partners = 20}, 11);
  expect_the_others_time(profile, one_by_one(profile));
}

TEST(JobSummary, RecordsContradictingTheGraphAreNamed) {
  Profile profile = testing::make_synthetic_profile({.sites = 30, .ranks = 2}, 3);
  profile.ranks[1].loops.front().loop = 0; // main, a procedure
  SummaryReduction reduction(profile.graph, 2);
  EXPECT_EQ(reduction.add_rank(profile.ranks[0]), std::nullopt);
  EXPECT_EQ(reduction.add_rank(profile.ranks[1]),
            "rank 1: loop record names site 0, which is not a loop of the program");
  profile = testing::make_synthetic_profile({.sites = 30, .ranks = 2}, 3);
  SummaryReduction narrow(profile.graph, 1); // partners must be below the run's size
  std::string problem;
  for (const RankRecords& r : profile.ranks) {
    problem = narrow.add_rank(r).value_or(problem);
  }
  EXPECT_THAT(problem, HasSubstr("outside the run's 1 ranks"));
}

// A profile of three ranks ending with its summary, whose place in the head a test may change.
struct WithSummary {
  Profile profile = testing::make_synthetic_profile({.sites = 30, .ranks = 3}, 5);
  JobSummary summary = one_by_one(profile);
  std::vector<std::byte> encoded = encode_job_summary(summary);
  detail::SummaryPlace place;
  std::vector<std::byte> index_and_ranks;

  WithSummary() {
    std::vector<RankSectionSize> sections;
    std::vector<std::byte> records;
    for (const RankRecords& r : profile.ranks) {
      const std::vector<std::byte> encoded = encode_rank_records(r);
      sections.push_back(rank_section_size(r.rank, encoded));
      records.insert(records.end(), encoded.begin(), encoded.end());
    }
    const SummarySectionSize size = summary_section_size(encoded);
    const std::uint64_t head =
        encode_profile_head(profile.meta, profile.graph, sections, size).size();
    index_and_ranks = encode_rank_index(head, sections);
    index_and_ranks.insert(index_and_ranks.end(), records.begin(), records.end());
    place = {head + index_and_ranks.size(), size.size, size.checksum};
    EXPECT_EQ(bytes(), encode_profile(profile, &summary)) << "the writer's layout";
  }

  // After a change to `summary`: its bytes, and its place's size and checksum.
  void reencode() {
    encoded = encode_job_summary(summary);
    place.size = encoded.size();
    place.checksum = summary_section_size(encoded).checksum;
  }

  std::vector<std::byte> bytes() const {
    detail::ByteWriter head;
    detail::write_head_sections(head, profile.meta, profile.graph);
    detail::write_summary_place(head, place);
    std::vector<std::byte> file = detail::frame_profile_payload(head.bytes(), kProfileVersion);
    file.insert(file.end(), index_and_ranks.begin(), index_and_ranks.end());
    file.insert(file.end(), encoded.begin(), encoded.end());
    return file;
  }
};

std::string error_opening(std::span<const std::byte> bytes) {
  try {
    ProfileReader reader(bytes);
  } catch (const ProfileError& e) {
    return e.what();
  }
  return "no error";
}

std::string error_reading_summary(std::span<const std::byte> bytes) {
  try {
    ProfileReader(bytes).read_summary();
  } catch (const ProfileError& e) {
    return e.what();
  }
  return "no error";
}

TEST(JobSummary, ReadsBackFromTheProfileAndLeavesTheRanksAsTheyWere) {
  const WithSummary p;
  const std::vector<std::byte> bytes = p.bytes();
  const ProfileReader reader(bytes);
  EXPECT_EQ(reader.version(), kProfileVersion);
  ASSERT_TRUE(reader.has_summary());
  EXPECT_EQ(reader.read_summary(), p.summary);
  EXPECT_EQ(reader.read_all(), p.profile);
  EXPECT_EQ(reader.read_rank(2), p.profile.ranks[2]);
  EXPECT_EQ(decode_profile(bytes), p.profile);
  // Without one, as written before: nothing to read.
  const std::vector<std::byte> plain = encode_profile(p.profile);
  EXPECT_FALSE(ProfileReader(plain).has_summary());
  EXPECT_EQ(ProfileReader(plain).read_summary(), std::nullopt);
}

TEST(JobSummary, APlaceOutsideTheFileOrOverlappingIsRefused) {
  WithSummary p;
  const std::size_t size = p.bytes().size();
  const std::uint64_t offset = p.place.offset;
  p.place.offset = size + 100;
  EXPECT_EQ(error_opening(p.bytes()), "corrupt profile: the summary at byte " +
                                          std::to_string(size + 100) + " lies outside the " +
                                          std::to_string(size) + "-byte file");
  p = {};
  p.place.size += 100;
  EXPECT_EQ(error_opening(p.bytes()), "profile truncated at byte " + std::to_string(size) +
                                          ": the head places the summary up to byte " +
                                          std::to_string(size + 100));
  p = {};
  p.place.size = UINT64_MAX - 10;
  EXPECT_EQ(error_opening(p.bytes()),
            "corrupt profile: the summary at byte " + std::to_string(offset) + " of " +
                std::to_string(UINT64_MAX - 10) + " bytes ends beyond 2^64");
  p = {};
  p.place.offset -= 5; // into the last rank's records
  p.place.size += 5;
  EXPECT_THAT(error_opening(p.bytes()), HasSubstr("rank index entry 2: rank 2's records at byte"));
  EXPECT_THAT(error_opening(p.bytes()),
              HasSubstr("overlap the summary at byte " + std::to_string(offset - 5)));
  p = {};
  p.place.offset += 3; // a gap after the last rank's records
  p.place.size -= 3;
  EXPECT_THAT(error_opening(p.bytes()), HasSubstr("the ranks' records end 3 bytes before the "
                                                  "summary at byte " +
                                                  std::to_string(offset + 3)));
  p = {};
  const std::uint64_t index_start = size - p.index_and_ranks.size() - p.encoded.size();
  p.place.size += p.place.offset - (index_start + 2);
  p.place.offset = index_start + 2;
  EXPECT_THAT(error_opening(p.bytes()),
              HasSubstr("the summary at byte " + std::to_string(index_start + 2) +
                        " overlaps the rank index, which ends at byte"));
  std::vector<std::byte> longer = WithSummary{}.bytes();
  longer.push_back(std::byte{0});
  EXPECT_EQ(error_opening(longer),
            "trailing garbage: 1 bytes after the summary's end at byte " + std::to_string(size));
}

TEST(JobSummary, ACorruptSummaryIsRefusedWhenRead) {
  WithSummary p;
  p.encoded[p.encoded.size() / 2] ^= std::byte{1};
  // Opening and reading ranks never read the summary.
  EXPECT_EQ(error_opening(p.bytes()), "no error");
  EXPECT_EQ(error_reading_summary(p.bytes()),
            "checksum mismatch: the profile's summary is corrupt");

  p = {};
  // A loop naming main, checksum and all correct.
  ASSERT_FALSE(p.summary.loops.empty());
  p.summary.loops.front().loop = 0;
  p.reencode();
  EXPECT_THAT(error_reading_summary(p.bytes()),
              HasSubstr("summary: a loop names site 0, which is not a loop of the program"));

  p = {};
  ASSERT_FALSE(p.summary.statements.empty());
  p.summary.statements.front().other_partners = JobSummary::Partner{};
  p.reencode();
  EXPECT_THAT(error_reading_summary(p.bytes()),
              HasSubstr("partners and a time for partners beyond the 16 listed"));

  p = {};
  // A statement's message count that is not its size classes' sum: encoded with 5 messages and
  // with 6, the first byte the two differ in is the count (the next is the class).
  JobSummary::Statement& statement = p.summary.statements.front();
  statement.sizes = {.min_bytes = 20, .max_bytes = 20};
  statement.sizes.classes[size_class(20)] = 5;
  p.reencode();
  const std::vector<std::byte> five = p.encoded;
  ++statement.sizes.classes[size_class(20)];
  p.reencode();
  const auto count_at = std::mismatch(five.begin(), five.end(), p.encoded.begin()).first;
  ASSERT_NE(count_at, five.end());
  p.encoded = five;
  p.encoded[static_cast<std::size_t>(count_at - five.begin())] = std::byte{6};
  p.place.checksum = summary_section_size(p.encoded).checksum;
  EXPECT_THAT(error_reading_summary(p.bytes()),
              HasSubstr("the messages of site " + std::to_string(statement.comm) +
                        " (6) are not the sum of its size classes"));

  p = {};
  p.summary.ranks[1].rank = 0;
  p.reencode();
  EXPECT_THAT(error_reading_summary(p.bytes()),
              HasSubstr("summary: rank 0 follows rank 0: ranks must be sorted and distinct"));
}

} // namespace
} // namespace vcmon::tables
