// Reads the one profile a tests/mpi program wrote (tables::read_profile_file) and checks one
// rank's communication records against what the PMPI layer must have measured. A GoogleTest
// program, one TEST per check, selected by the ctest command line (CheckerArguments.hpp):
//   pmpi_profile_check --gtest_filter=PmpiProfile.Delay <dir> <rank> <MPI function>
//                      <partner|coll> <expected ms> <tolerance ms>
//       the com record of that synthetic site and partner has sync delay = expected ± tolerance
//   pmpi_profile_check --gtest_filter=PmpiProfile.Records <dir> <rank> <MPI function>
//                      <partner|coll> <count> <bytes>
//       ... has exactly that count and bytes
//   pmpi_profile_check --gtest_filter=PmpiProfile.Sizes <dir> <rank> <MPI function>
//                      <partner|coll> <min> <max>
//       ... has every operation a message, the smallest and largest of that size, and each in
//       a size class between theirs
//   pmpi_profile_check --gtest_filter=PmpiProfile.Offset <dir> <rank> <expected ns>
//                      <tolerance ns>
//       the rank's estimated clock offset to rank 0
//   pmpi_profile_check --gtest_filter=PmpiProfile.Transmission <dir> <rank> <MPI function>
//                      <partner|coll> <at most ms>
//   pmpi_profile_check --gtest_filter=PmpiProfile.Indexed <dir> <ranks>
//       the profile is of the current format, its rank index has ranks 0 to <ranks> - 1, each
//       section reads back as that rank's records, and no temporary file is left beside it
#include "CheckerArguments.hpp"
#include "CheckerProfiles.hpp"
#include "vcmon/tables/JobSummary.hpp"
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

using namespace vcmon::tables;
using namespace vcmon::checkers;

namespace {

double ms(std::uint64_t ns) {
  return static_cast<double>(ns) / 1e6;
}

// Rank `rank`'s records in `profile` into `found`; a fatal failure when it has none.
void rank_records(const Profile& profile, int rank, const RankRecords*& found) {
  found = nullptr;
  for (const RankRecords& r : profile.ranks) {
    if (r.rank == rank) {
      found = &r;
    }
  }
  ASSERT_NE(found, nullptr) << "expected records of rank " << rank << " in the profile";
}

// The com record of the synthetic site of MPI function `function` (an uninstrumented call)
// with partner `partner_arg` ("coll": collective) into `found`; a fatal failure when none.
void com_record(const Profile& profile, const RankRecords& records, const std::string& function,
                const std::string& partner_arg, const ComRecord*& found) {
  const std::int32_t partner =
      partner_arg == "coll" ? ComRecord::kCollective : std::stoi(partner_arg);
  found = nullptr;
  for (const ComRecord& com : records.coms) {
    const Site& site = profile.graph.site(com.comm);
    if (site.name == function && site.pos.file.empty() && com.partner == partner) {
      found = &com;
      break;
    }
  }
  ASSERT_NE(found, nullptr) << "expected rank " << records.rank << " to have a record of "
                            << function << " with partner " << partner_arg;
  std::printf("rank %d %s partner %s: count %llu, bytes %llu, sync delay %.3f ms, "
              "transmission %.3f ms\n",
              records.rank, function.c_str(), partner_arg.c_str(),
              static_cast<unsigned long long>(found->count),
              static_cast<unsigned long long>(found->bytes), ms(found->sync_delay_ns),
              ms(found->transmission_ns));
}

// The profile in argument 0, the records of the rank in argument 1 and, unless `offset`, the
// com record of the MPI function and partner in arguments 2 and 3.
struct Selected {
  Profile profile;
  const RankRecords* records = nullptr;
  const ComRecord* com = nullptr;
  std::string what; // "rank R FUNCTION partner P", for the messages
};

void select_record(Selected& s, bool offset = false) {
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), s.profile));
  ASSERT_NO_FATAL_FAILURE(rank_records(s.profile, checker_argument_int(1), s.records));
  if (!offset) {
    ASSERT_NO_FATAL_FAILURE(
        com_record(s.profile, *s.records, checker_argument(2), checker_argument(3), s.com));
    s.what = "rank " + std::to_string(s.records->rank) + " " + checker_argument(2) + " partner " +
             checker_argument(3);
  }
}

TEST(PmpiProfile, Delay) {
  Selected s;
  ASSERT_NO_FATAL_FAILURE(select_record(s));
  const double expected = checker_argument_double(4);
  const double tolerance = checker_argument_double(5);
  EXPECT_NEAR(ms(s.com->sync_delay_ns), expected, tolerance)
      << s.what << ": expected a sync delay of " << expected << " ± " << tolerance << " ms";
}

TEST(PmpiProfile, Records) {
  Selected s;
  ASSERT_NO_FATAL_FAILURE(select_record(s));
  EXPECT_EQ(s.com->count, checker_argument_u64(4)) << s.what << ": expected this count";
  EXPECT_EQ(s.com->bytes, checker_argument_u64(5)) << s.what << ": expected these bytes";
}

TEST(PmpiProfile, Sizes) {
  Selected s;
  ASSERT_NO_FATAL_FAILURE(select_record(s));
  const ComRecord& com = *s.com;
  const std::uint64_t least = checker_argument_u64(4);
  const std::uint64_t most = checker_argument_u64(5);
  std::uint64_t between = 0;
  for (std::size_t c = size_class(least); c <= size_class(most); ++c) {
    between += com.sizes.classes[c];
  }
  std::printf("messages %llu (%llu in the classes from %llu to %llu B), %llu to %llu B\n",
              static_cast<unsigned long long>(com.sizes.messages()),
              static_cast<unsigned long long>(between), static_cast<unsigned long long>(least),
              static_cast<unsigned long long>(most),
              static_cast<unsigned long long>(com.sizes.min_bytes),
              static_cast<unsigned long long>(com.sizes.max_bytes));
  EXPECT_EQ(com.sizes.messages(), com.count) << s.what << ": expected every operation a message";
  EXPECT_EQ(between, com.count) << s.what << ": expected every message in a size class from "
                                << least << " B to " << most << " B";
  EXPECT_EQ(com.sizes.min_bytes, least) << s.what << ": expected this smallest message";
  EXPECT_EQ(com.sizes.max_bytes, most) << s.what << ": expected this largest message";
}

TEST(PmpiProfile, Offset) {
  Selected s;
  ASSERT_NO_FATAL_FAILURE(select_record(s, true));
  const double expected = checker_argument_double(2);
  const double tolerance = checker_argument_double(3);
  const double offset = static_cast<double>(s.records->clock_offset_ns);
  std::printf("rank %d: clock offset %.0f ns, expected %.0f ± %.0f\n", s.records->rank, offset,
              expected, tolerance);
  EXPECT_NEAR(offset, expected, tolerance)
      << "rank " << s.records->rank << ": expected this clock offset to rank 0 (ns)";
}

TEST(PmpiProfile, Transmission) {
  Selected s;
  ASSERT_NO_FATAL_FAILURE(select_record(s));
  EXPECT_LE(ms(s.com->transmission_ns), checker_argument_double(4))
      << s.what << ": expected at most this transmission time (ms)";
}

} // namespace

TEST(PmpiProfile, Indexed) {
  const std::filesystem::path dir = checker_argument(0);
  const std::vector<std::filesystem::path> found = profiles_in(dir);
  ASSERT_EQ(found.size(), 1u) << "expected exactly one profile (*.vcmon) in " << dir.string();
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().extension(), ".vcmon") << "left beside the profile: " << entry.path();
  }
  const ProfileReader reader(found.front());
  EXPECT_EQ(reader.version(), kProfileVersion);
  const int ranks = checker_argument_int(1);
  EXPECT_EQ(reader.meta().ranks, ranks);
  EXPECT_FALSE(reader.meta().hosts.empty()) << "expected the ranks' host names";
  ASSERT_EQ(reader.rank_count(), static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    EXPECT_EQ(reader.rank_at(static_cast<std::size_t>(r)), r);
    EXPECT_EQ(reader.read_rank_at(static_cast<std::size_t>(r)).rank, r);
  }
  // The job's summary, reduced up a binomial tree of the run's ranks, is the summary of the
  // ranks' records reduced here one after the other (docs/runtime.md, "Writing the profile").
  const std::optional<JobSummary> summary = reader.read_summary();
  ASSERT_TRUE(summary.has_value()) << "expected the job's summary after the ranks' records";
  SummaryReduction reduction(reader.graph(), reader.meta().ranks);
  for (int r = 0; r < ranks; ++r) {
    ASSERT_EQ(reduction.add_rank(reader.read_rank_at(static_cast<std::size_t>(r))), std::nullopt);
  }
  reduction.begin_other_partners(reduction.other_partners_needed());
  for (int r = 0; r < ranks; ++r) {
    reduction.add_other_partners(reader.read_rank_at(static_cast<std::size_t>(r)));
  }
  EXPECT_EQ(*summary, reduction.whole_job());
}
