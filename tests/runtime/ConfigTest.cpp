#include "core/Config.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace vcmon::runtime {
namespace {

// Sets VCMON_* variables for one test and removes them afterwards.
class ConfigTest : public ::testing::Test {
protected:
  void TearDown() override {
    for (const char* name : {"VCMON_DISABLE", "VCMON_OUTPUT", "VCMON_INJECT_PROBE_NS",
                             "VCMON_TEST_CLOCK_OFFSET_NS", "VCMON_TEST_ESTIMATE_OFFSETS",
                             "VCMON_DEADLOCK", "VCMON_OVERFLOW_RECORDS", "VCMON_STAMP_RING"}) {
      unsetenv(name);
    }
  }
  // The configuration and what it printed on stderr.
  static std::pair<Config, std::string> read(bool report_problems = true) {
    ::testing::internal::CaptureStderr();
    Config config = Config::from_environment(report_problems);
    return {config, ::testing::internal::GetCapturedStderr()};
  }
};

TEST_F(ConfigTest, DefaultsWhenNothingIsSet) {
  const auto [config, messages] = read();
  EXPECT_FALSE(config.disabled);
  EXPECT_EQ(config.output_dir, std::filesystem::current_path().string());
  EXPECT_EQ(config.inject_probe_ns, 0u);
  EXPECT_EQ(config.test_clock_offset_ns, 0);
  EXPECT_FALSE(config.test_estimate_offsets);
  EXPECT_EQ(config.deadlock, DeadlockMode::Cycle);
  EXPECT_EQ(config.overflow_records, 8192u);
  EXPECT_EQ(config.stamp_ring_slots, 128u);
  EXPECT_EQ(messages, "");
}

TEST_F(ConfigTest, ValidValuesAreTaken) {
  setenv("VCMON_DISABLE", "1", 1);
  setenv("VCMON_OUTPUT", "/tmp", 1);
  setenv("VCMON_INJECT_PROBE_NS", "2000000", 1);
  setenv("VCMON_TEST_CLOCK_OFFSET_NS", "-5000", 1);
  setenv("VCMON_TEST_ESTIMATE_OFFSETS", "1", 1);
  setenv("VCMON_DEADLOCK", "nullmsg", 1);
  setenv("VCMON_OVERFLOW_RECORDS", "1000", 1);
  setenv("VCMON_STAMP_RING", "0", 1);
  const auto [config, messages] = read();
  EXPECT_TRUE(config.disabled);
  EXPECT_EQ(config.output_dir, "/tmp");
  EXPECT_EQ(config.inject_probe_ns, 2'000'000u);
  EXPECT_EQ(config.test_clock_offset_ns, -5000);
  EXPECT_TRUE(config.test_estimate_offsets);
  EXPECT_EQ(config.deadlock, DeadlockMode::NullMessage);
  EXPECT_EQ(config.overflow_records, 1024u); // rounded up to a power of two
  EXPECT_EQ(config.stamp_ring_slots, 0u);
  EXPECT_EQ(messages, "");
}

TEST_F(ConfigTest, EachInvalidValueGivesOneLineAndTheDefault) {
  setenv("VCMON_DISABLE", "yes", 1);
  setenv("VCMON_OUTPUT", "/dev/null/vcmon-output", 1);
  setenv("VCMON_INJECT_PROBE_NS", "12abc", 1);
  setenv("VCMON_TEST_CLOCK_OFFSET_NS", "99999999999999999999", 1);
  setenv("VCMON_DEADLOCK", "magic", 1);
  setenv("VCMON_OVERFLOW_RECORDS", "3", 1);
  setenv("VCMON_STAMP_RING", "65537", 1);
  const auto [config, messages] = read();
  EXPECT_FALSE(config.disabled);
  EXPECT_EQ(config.output_dir, std::filesystem::current_path().string());
  EXPECT_EQ(config.inject_probe_ns, 0u);
  EXPECT_EQ(config.test_clock_offset_ns, 0);
  EXPECT_FALSE(config.test_estimate_offsets);
  EXPECT_EQ(config.deadlock, DeadlockMode::Cycle);
  EXPECT_EQ(config.overflow_records, 8192u);
  EXPECT_EQ(config.stamp_ring_slots, 128u);
  EXPECT_EQ(messages,
            "vcmon: VCMON_DISABLE=yes: expected 0 or 1; using default 0\n"
            "vcmon: VCMON_OUTPUT=/dev/null/vcmon-output: expected a writable directory; "
            "using default (the working directory)\n"
            "vcmon: VCMON_INJECT_PROBE_NS=12abc: expected nanoseconds from 0 to 1000000000; "
            "using default 0\n"
            "vcmon: VCMON_TEST_CLOCK_OFFSET_NS=99999999999999999999: expected nanoseconds from "
            "-3600000000000 to 3600000000000; using default 0\n"
            "vcmon: VCMON_DEADLOCK=magic: expected cycle or nullmsg; using default cycle\n"
            "vcmon: VCMON_OVERFLOW_RECORDS=3: expected a record count from 64 to 16777216; "
            "using default 8192\n"
            "vcmon: VCMON_STAMP_RING=65537: expected a slot count from 0 to 65536; using "
            "default 128\n");
}

// A program may change its working directory before it writes its profile: the directory is
// the one a relative path named at start-up, where it was made.
TEST_F(ConfigTest, ARelativeOutputDirectoryIsFromTheStartingDirectory) {
  const std::filesystem::path made =
      std::filesystem::temp_directory_path() / ("vcmon-config-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(made);
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(made);
  setenv("VCMON_OUTPUT", "profiles/./here", 1);
  const auto [config, messages] = read();
  std::filesystem::current_path(before);
  EXPECT_EQ(config.output_dir, (made / "profiles" / "here").string());
  EXPECT_TRUE(std::filesystem::is_directory(made / "profiles" / "here"));
  std::filesystem::remove_all(made);
}

TEST_F(ConfigTest, AFileIsNotAnOutputDirectory) {
  setenv("VCMON_OUTPUT", "/etc/hostname", 1);
  const auto [config, messages] = read();
  EXPECT_EQ(config.output_dir, std::filesystem::current_path().string());
  EXPECT_NE(messages.find("VCMON_OUTPUT=/etc/hostname: expected a writable directory"),
            std::string::npos);
}

TEST_F(ConfigTest, OtherRanksStayQuiet) {
  setenv("VCMON_INJECT_PROBE_NS", "-1", 1);
  const auto [config, messages] = read(false);
  EXPECT_EQ(config.inject_probe_ns, 0u);
  EXPECT_EQ(messages, "");
}

} // namespace
} // namespace vcmon::runtime
