#include "SyntheticProfile.hpp"

#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <sys/stat.h>

namespace vcmon::tables {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class ProfileFile : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "vcmon-profile-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      names.push_back(entry.path().filename().string());
    }
    std::ranges::sort(names);
    return names;
  }

  static std::string error_of(const std::function<void()>& action) {
    try {
      action();
    } catch (const ProfileError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
  Profile profile_ = testing::make_synthetic_profile({.sites = 200, .ranks = 4, .partners = 4}, 3);
};

TEST_F(ProfileFile, WriteThenReadLeavesOnlyTheProfile) {
  const fs::path path = dir_ / "run.vcmon";
  write_profile_file(profile_, path);
  EXPECT_EQ(files(), std::vector<std::string>{"run.vcmon"}) << "no temporary left behind";
  EXPECT_EQ(read_profile_file(path), profile_);
}

// Profiles are for colleagues too: the file's mode is 0666 less the umask, as for any file the
// user's programs create, not the 0600 of the temporary it was written as.
TEST_F(ProfileFile, ModeFollowsTheUmask) {
  const mode_t previous = ::umask(027);
  const fs::path group_readable = write_new_profile_file(profile_, dir_, "group");
  ::umask(0);
  const fs::path everyone = dir_ / "everyone.vcmon";
  write_profile_file(profile_, everyone);
  ::umask(previous);
  struct stat info {};
  ASSERT_EQ(::stat(group_readable.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u);
  ASSERT_EQ(::stat(everyone.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0666u);
}

TEST_F(ProfileFile, RewritingReplacesTheWholeFile) {
  const fs::path path = dir_ / "run.vcmon";
  write_profile_file(profile_, path);
  const Profile smaller =
      testing::make_synthetic_profile({.sites = 10, .ranks = 1, .partners = 1}, 4);
  write_profile_file(smaller, path);
  EXPECT_EQ(read_profile_file(path), smaller);
  EXPECT_EQ(files(), std::vector<std::string>{"run.vcmon"});
}

TEST_F(ProfileFile, NewProfilesNeverReplaceAFileNorFollowALink) {
  const fs::path victim = dir_ / "victim.txt";
  std::ofstream(victim) << "user data";
  fs::create_symlink(victim, dir_ / "run.vcmon");
  const fs::path first = write_new_profile_file(profile_, dir_, "run");
  const fs::path second = write_new_profile_file(profile_, dir_, "run");
  EXPECT_EQ(first, dir_ / "run-1.vcmon");
  EXPECT_EQ(second, dir_ / "run-2.vcmon");
  EXPECT_EQ(read_profile_file(first), profile_);
  EXPECT_EQ(read_profile_file(second), profile_);
  EXPECT_EQ(files(),
            (std::vector<std::string>{"run-1.vcmon", "run-2.vcmon", "run.vcmon", "victim.txt"}))
      << "no temporary left behind";
  std::ifstream in(victim);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "user data");
}

TEST_F(ProfileFile, UnwritableDirectoryIsAnErrorNamingThePath) {
  const fs::path not_a_dir = dir_ / "plain-file";
  std::ofstream(not_a_dir) << "user data";
  const fs::path path = not_a_dir / "run.vcmon";
  EXPECT_THAT(error_of([&] { write_profile_file(profile_, path); }),
              StartsWith("cannot write profile " + path.string() + ": "));
  const fs::path missing = dir_ / "no-such-dir" / "run.vcmon";
  EXPECT_THAT(error_of([&] { write_profile_file(profile_, missing); }),
              HasSubstr(missing.string()));
  EXPECT_EQ(files(), std::vector<std::string>{"plain-file"});
}

TEST_F(ProfileFile, TargetThatIsADirectoryIsLeftAloneAndReported) {
  const fs::path path = dir_ / "results";
  fs::create_directory(path);
  std::ofstream(path / "keep.txt") << "user data";
  EXPECT_THAT(error_of([&] { write_profile_file(profile_, path); }), HasSubstr(path.string()));
  EXPECT_EQ(files(), std::vector<std::string>{"results"}) << "temporary removed";
  EXPECT_TRUE(fs::exists(path / "keep.txt"));
}

// Written by the format-1 writer (before the folded activations and calling contexts): still
// read, the fields that version lacks are 0 or empty.
TEST_F(ProfileFile, Version1ProfilesStillRead) {
  const Profile v1 = read_profile_file(VCMON_TABLES_TEST_DATA "/synthetic-12-sites.v1-profile");
  Profile expected = testing::make_synthetic_profile(
      {.sites = 12, .ranks = 2, .partners = 2, .contexts = false}, 7); // contexts: version 6
  for (RankRecords& rank : expected.ranks) {
    for (ComRecord& com : rank.coms) { // message sizes came with version 3
      com.sizes.min_bytes = com.sizes.max_bytes = 0;
      com.sizes.classes = {};
    }
  }
  EXPECT_EQ(v1, expected);
  EXPECT_EQ(v1.meta.activation_depth, 0u);
}

// Written by the format-4 writer (every com record's message sizes listed in full), the last
// before the rank index: one payload, one checksum.
TEST_F(ProfileFile, Version4ProfilesStillRead) {
  const fs::path v4 = VCMON_TABLES_TEST_DATA "/synthetic-12-sites.v4-profile";
  const Profile expected = testing::make_synthetic_profile(
      {.sites = 12, .ranks = 2, .partners = 2, .contexts = false}, 7);
  EXPECT_EQ(read_profile_file(v4), expected);
  const ProfileReader reader(v4);
  EXPECT_EQ(reader.version(), 4u);
  ASSERT_EQ(reader.rank_count(), 2u);
  EXPECT_EQ(reader.read_rank(1), expected.ranks[1]);
}

TEST_F(ProfileFile, ReadErrorsNameThePath) {
  const fs::path missing = dir_ / "missing.vcmon";
  EXPECT_THAT(error_of([&] { read_profile_file(missing); }),
              StartsWith("cannot read profile " + missing.string() + ": No such file"));
  EXPECT_THAT(error_of([&] { read_profile_file(dir_); }), HasSubstr("not a regular file"));
  const fs::path text = dir_ / "notes.txt";
  std::ofstream(text) << "hello, not a profile";
  EXPECT_EQ(error_of([&] { read_profile_file(text); }),
            text.string() + ": not a vcmon profile (bad magic)");
}

} // namespace
} // namespace vcmon::tables
