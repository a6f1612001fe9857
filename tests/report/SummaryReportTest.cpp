// The report from a profile's summary section (reduced as the runtime reduces it, up a binomial
// tree of ranks) is byte for byte the report from every rank's records, in every format and
// under every filter (docs/report.md, "The whole job from the summary").
#include "ReportProfiles.hpp"
#include "SimulatedProgram.hpp"
#include "SummaryTree.hpp"
#include "SyntheticProfile.hpp"
#include "TempDir.hpp"

#include "vcmon/report/FoldedStacksRenderer.hpp"
#include "vcmon/report/HatchetRenderer.hpp"
#include "vcmon/report/HtmlRenderer.hpp"
#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/SpeedscopeRenderer.hpp"
#include "vcmon/report/TextRenderer.hpp"
#include "vcmon/tables/JobSummary.hpp"
#include "vcmon/tables/ProfileParts.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vcmon::report {
namespace {

// Every format vcmon-report writes, one after the other.
std::string rendered(const Report& report) {
  std::ostringstream out;
  TextRenderer().render(report, out);
  JsonRenderer().render(report, out);
  HtmlRenderer().render(report, out);
  HatchetRenderer().render(report, out);
  SpeedscopeRenderer().render(report, out);
  FoldedStacksRenderer().render(report, out);
  return out.str();
}

struct Case {
  std::string name;
  tables::Profile profile;
};

std::vector<Case> profiles_with_contexts() {
  std::vector<Case> cases = {
      {"figure 12", testing::figure12_context_profile()},
      {"two callers", testing::two_callers_profile()},
      {"factorial", testing::factorial_profile()},
      {"even odd", testing::even_odd_profile()},
      {"triangle", testing::triangle_profile()},
      {"ring of 40", testing::ring_profile(40)},
      // Statements with 20 partners: the report lists 16 and sums the others per rank.
      {"20 partners",
       tables::testing::make_synthetic_profile({.sites = 50, .ranks = 24, .partners = 20}, 9)},
      {"one rank", tables::testing::make_synthetic_profile({.sites = 30, .ranks = 1}, 4)},
  };
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    cases.push_back({"simulated " + std::to_string(seed),
                     testing::simulated_program_profile(seed, 2 + seed % 6)});
  }
  return cases;
}

// The filters a report takes, each alone: none, --depth, --threshold, --site.
std::vector<ReportOptions> filters(const tables::Profile& profile) {
  std::vector<ReportOptions> all(4);
  all[1].depth = 2;
  all[2].threshold_percent = 5;
  // A statement some rank ran, at a position of the program's sources.
  for (const auto& rank : profile.ranks) {
    for (const auto& com : rank.coms) {
      const auto& pos = profile.graph.site(com.comm).pos;
      if (!all[3].site && !pos.file.empty()) {
        all[3].site = SiteSelector{pos.file, pos.line};
      }
    }
  }
  return all;
}

TEST(ReportFromSummary, IsTheReportOfEveryRankInEveryFormatAndFilter) {
  testing::TempDir dir;
  for (const Case& c : profiles_with_contexts()) {
    SCOPED_TRACE(c.name);
    const auto path = dir / "summary.vcmon";
    const tables::JobSummary summary = tables::testing::reduce_up_a_binomial_tree(c.profile);
    tables::write_profile_file(c.profile, path, &summary);
    const tables::ProfileReader reader(path);
    ASSERT_TRUE(reader.has_summary());
    for (ReportOptions options : filters(c.profile)) {
      const std::string from_summary = rendered(build_report(reader, options));
      EXPECT_EQ(from_summary, rendered(build_report(c.profile, options)));
      options.use_summary = false;
      EXPECT_EQ(from_summary, rendered(build_report(reader, options)));
    }
  }
}

TEST(ReportFromSummary, NeedsNoRankButReadsOneForRank) {
  testing::TempDir dir;
  const tables::Profile profile = testing::two_callers_profile();
  const tables::JobSummary summary = tables::testing::reduce_up_a_binomial_tree(profile);
  std::vector<std::byte> bytes = tables::encode_profile(profile, &summary);
  const std::string expected = rendered(build_report(profile));
  // Rank 1's records damaged: the whole job's view never reads them.
  const std::size_t head = tables::encode_profile_head(profile.meta, profile.graph, {}, {}).size();
  const std::size_t rank1 = head + tables::rank_index_size(profile.ranks.size()) +
                            tables::encode_rank_records(profile.ranks[0]).size() + 3;
  bytes[rank1] ^= std::byte{1};
  const tables::ProfileReader reader(bytes);
  EXPECT_EQ(rendered(build_report(reader)), expected);
  ReportOptions from_ranks;
  from_ranks.use_summary = false;
  EXPECT_THROW(build_report(reader, from_ranks), tables::ProfileError);
  ReportOptions rank;
  rank.rank = 1;
  EXPECT_THROW(build_report(reader, rank), tables::ProfileError);
  rank.rank = 2;
  EXPECT_EQ(rendered(build_report(reader, rank)), rendered(build_report(profile, rank)));
}

TEST(ReportFromSummary, ProfilesWithoutOneReportAsBefore) {
  testing::TempDir dir;
  const auto path = dir / "plain.vcmon";
  // Per-site trees (no contexts, a partial profile) and a profile of contexts, all without a
  // summary: read from the ranks, as ever.
  tables::Profile partial = testing::two_callers_profile();
  partial.meta.partial = true;
  partial.meta.partial_reason = "signal 15";
  for (const tables::Profile& profile :
       {testing::figure12_profile(), testing::two_callers_profile(false), partial,
        testing::two_callers_profile()}) {
    tables::write_profile_file(profile, path);
    const tables::ProfileReader reader(path);
    EXPECT_FALSE(reader.has_summary());
    EXPECT_EQ(rendered(build_report(reader)), rendered(build_report(profile)));
  }
  // A partial profile with a summary (no writer makes one) keeps its per-site tree.
  const tables::JobSummary summary = tables::testing::reduce_up_a_binomial_tree(partial);
  tables::write_profile_file(partial, path, &summary);
  const Report report = build_report(tables::ProfileReader(path));
  EXPECT_FALSE(report.header.contexts);
  EXPECT_EQ(rendered(report), rendered(build_report(partial)));
}

} // namespace
} // namespace vcmon::report
