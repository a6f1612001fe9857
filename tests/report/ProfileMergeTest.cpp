// Several profiles merged as one job (vcmon-report --merge): ranks side by side in profile
// order, partners shifted with their ranks, profiles of other programs refused.
#include "ReportProfiles.hpp"
#include "TempDir.hpp"

#include "vcmon/report/ProfileMerge.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/ReportError.hpp"

#include <gtest/gtest.h>

namespace vcmon::report {
namespace {

MergedProfile figure12_twice(const testing::TempDir& dir) {
  MergedProfile merged;
  append_profile(merged, "a.vcmon", dir.round_trip(testing::figure12_profile()));
  tables::Profile second = dir.round_trip(testing::figure12_profile());
  second.meta.hosts = {"node2"};
  second.meta.start_unix_ns += 5;
  second.meta.end_unix_ns += 7;
  append_profile(merged, "b.vcmon", std::move(second));
  return merged;
}

TEST(ProfileMerge, RanksFollowProfileOrderWithTheirPartners) {
  const testing::TempDir dir;
  const MergedProfile merged = figure12_twice(dir);
  ASSERT_EQ(merged.parts.size(), 2u);
  EXPECT_EQ(merged.parts[0].name, "a.vcmon");
  EXPECT_EQ(merged.parts[0].first_rank, 0);
  EXPECT_EQ(merged.parts[1].first_rank, 4);
  EXPECT_EQ(merged.parts[1].ranks, 4);
  const auto& p = merged.profile;
  EXPECT_EQ(p.meta.ranks, 8);
  EXPECT_EQ(p.meta.hosts, (std::vector<std::string>{"node1", "node2"}));
  const auto first = testing::figure12_profile().meta;
  EXPECT_EQ(p.meta.start_unix_ns, first.start_unix_ns);
  EXPECT_EQ(p.meta.end_unix_ns, first.end_unix_ns + 7);
  ASSERT_EQ(p.ranks.size(), 8u);
  for (int r = 0; r < 8; ++r) {
    EXPECT_EQ(p.ranks[r].rank, r);
    // Figure 12's e1 sends to the next rank of its own run, e2 receives from the previous one.
    const int base = r < 4 ? 0 : 4;
    EXPECT_EQ(p.ranks[r].coms[0].partner, base + (r - base + 1) % 4) << r;
    EXPECT_EQ(p.ranks[r].coms[1].partner, base + (r - base + 3) % 4) << r;
  }
  // The real encoder accepts the result (every partner within the merged ranks).
  EXPECT_NO_THROW(tables::decode_profile(tables::encode_profile(p)));
}

TEST(ProfileMerge, ReportOfTwoEqualRunsHasTheirMeansAndEveryRank) {
  const testing::TempDir dir;
  const MergedProfile merged = figure12_twice(dir);
  const Report both = build_report(merged.profile);
  const Report one = build_report(dir.round_trip(testing::figure12_profile()));
  EXPECT_EQ(both.header.ranks_reported, 8);
  EXPECT_DOUBLE_EQ(both.header.program_ns, 2 * one.header.program_ns);
  ASSERT_EQ(both.time_split.ranks.size(), 8u);
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(both.time_split.ranks[r + 4].application_ns, one.time_split.ranks[r].application_ns);
  }
  // Means over 8 ranks of two equal runs are the means over 4.
  EXPECT_DOUBLE_EQ(both.tree.node(0).time.mean, one.tree.node(0).time.mean);
  // --rank counts in the merged numbering: rank 5 is the second run's rank 1.
  ReportOptions rank5;
  rank5.rank = 5;
  ReportOptions rank1;
  rank1.rank = 1;
  EXPECT_DOUBLE_EQ(
      build_report(merged.profile, rank5).header.program_ns,
      build_report(dir.round_trip(testing::figure12_profile()), rank1).header.program_ns);
}

TEST(ProfileMerge, AnotherProgramIsRefusedNamingBothFiles) {
  const testing::TempDir dir;
  MergedProfile merged;
  append_profile(merged, "fig12.vcmon", dir.round_trip(testing::figure12_profile()));
  try {
    append_profile(merged, "fact.vcmon", dir.round_trip(testing::factorial_profile()));
    FAIL() << "profiles of two programs were merged";
  } catch (const ReportError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("fact.vcmon is not of the same program as fig12.vcmon"), std::string::npos)
        << what;
    EXPECT_NE(what.find("static tables differ"), std::string::npos) << what;
  }
}

TEST(ProfileMerge, PartialPartsAreNamed) {
  const testing::TempDir dir;
  MergedProfile merged;
  append_profile(merged, "a.vcmon", dir.round_trip(testing::figure12_profile()));
  tables::Profile partial = dir.round_trip(testing::figure12_profile());
  partial.meta.partial = true;
  partial.meta.partial_reason = "SIGTERM";
  append_profile(merged, "b.vcmon", std::move(partial));
  EXPECT_TRUE(merged.profile.meta.partial);
  EXPECT_EQ(merged.profile.meta.partial_reason, "b.vcmon: SIGTERM");
}

} // namespace
} // namespace vcmon::report
