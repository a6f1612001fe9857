// ProfileReader on files: one rank's records read, verified and decoded on demand, from the
// rank index, without touching the other ranks' bytes.
#include "SyntheticProfile.hpp"

#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace vcmon::tables {
namespace {

namespace fs = std::filesystem;
using ::testing::StartsWith;

class ProfileReaderFile : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "vcmon-reader-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    write_profile_file(profile_, path_ = dir_ / "p.vcmon");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Flips one byte of the file at `offset`.
  void corrupt_byte_at(std::uint64_t offset) const {
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    const char c = static_cast<char>(f.get());
    f.seekp(static_cast<std::streamoff>(offset));
    f.put(static_cast<char>(c ^ 0x5a));
  }

  fs::path dir_;
  fs::path path_;
  Profile profile_ = testing::make_synthetic_profile({.sites = 300, .ranks = 6, .partners = 3}, 11);
};

TEST_F(ProfileReaderFile, OpensWithMetadataGraphAndIndexThenReadsAnyRank) {
  const ProfileReader reader(path_);
  EXPECT_EQ(reader.version(), kProfileVersion);
  EXPECT_EQ(reader.meta(), profile_.meta);
  EXPECT_EQ(reader.graph(), profile_.graph);
  ASSERT_EQ(reader.rank_count(), 6u);
  EXPECT_EQ(reader.rank_at(5), 5);
  EXPECT_EQ(reader.read_rank(4), profile_.ranks[4]);
  EXPECT_EQ(reader.read_rank_at(0), profile_.ranks[0]);
  EXPECT_EQ(reader.read_rank(6), std::nullopt);
  EXPECT_EQ(reader.read_all(), profile_);
}

TEST(ProfileReaderContexts, GivenAPieceAtATimeTheyAreTheContextsHeld) {
  // Ranks of 3000 contexts: several pieces each.
  const Profile profile =
      testing::make_synthetic_profile({.sites = 3000, .ranks = 2, .partners = 1}, 3);
  const std::vector<std::byte> bytes = encode_profile(profile);
  const ProfileReader reader(bytes);
  for (std::size_t i = 0; i < reader.rank_count(); ++i) {
    std::vector<ContextRecord> passed;
    std::size_t pieces = 0;
    RankRecords records = reader.read_rank_at(i, [&](std::span<const ContextRecord> piece) {
      passed.insert(passed.end(), piece.begin(), piece.end());
      ++pieces;
    });
    EXPECT_TRUE(records.contexts.empty());
    EXPECT_GT(pieces, 1u);
    records.contexts = std::move(passed);
    EXPECT_EQ(records, profile.ranks[i]);
  }
}

TEST_F(ProfileReaderFile, PartialProfilesHoldSomeRanksOfTheRun) {
  Profile partial = profile_;
  partial.ranks = {profile_.ranks[1], profile_.ranks[4]};
  partial.meta.partial = true;
  write_profile_file(partial, path_);
  const ProfileReader reader(path_);
  ASSERT_EQ(reader.rank_count(), 2u);
  EXPECT_EQ(reader.meta().ranks, 6);
  EXPECT_EQ(reader.read_rank(4), profile_.ranks[4]);
  EXPECT_EQ(reader.read_rank(2), std::nullopt);
  EXPECT_EQ(reader.read_rank(0), std::nullopt);
}

// Each rank's records have their own checksum: a damaged rank is found when it is read, and
// the others still read.
TEST_F(ProfileReaderFile, ADamagedRankLeavesTheOthersReadable) {
  const std::uint64_t size = fs::file_size(path_);
  corrupt_byte_at(size - 1); // the last rank's records end the file
  const ProfileReader reader(path_);
  EXPECT_EQ(reader.read_rank(2), profile_.ranks[2]);
  try {
    reader.read_rank(5);
    ADD_FAILURE() << "rank 5's damage went unnoticed";
  } catch (const ProfileError& e) {
    EXPECT_EQ(std::string(e.what()),
              path_.string() + ": checksum mismatch: rank 5's records are corrupt");
  }
}

TEST_F(ProfileReaderFile, ADamagedHeadOrIndexStopsTheOpening) {
  corrupt_byte_at(40); // in the string table
  EXPECT_THROW(
      try { ProfileReader{path_}; } catch (const ProfileError& e) {
        EXPECT_THAT(e.what(),
                    StartsWith(path_.string() + ": checksum mismatch: the profile's head"));
        throw;
      },
      ProfileError);
}

} // namespace
} // namespace vcmon::tables
