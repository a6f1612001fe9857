// The real vcmon-report binary: exit status and one clear line for every kind of bad input.
#include "ReportCommandRun.hpp"
#include "ReportProfiles.hpp"
#include "TempDir.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>

namespace vcmon::report {
namespace {

namespace fs = std::filesystem;

using testing::CommandResult;
using testing::slurp;

class ReportCommand : public ::testing::Test {
protected:
  ReportCommand() : profile(dir / "fig12.vcmon") {
    tables::write_profile_file(testing::figure12_profile(), profile);
  }

  // `prefix`: a command that runs vcmon-report (e.g. `timeout 5`).
  CommandResult run(const std::string& arguments, const std::string& prefix = "") const {
    return testing::run_report(dir.path(), arguments, prefix);
  }

  // A copy of the profile with its bytes changed by `edit`.
  fs::path damaged(const std::string& name, void (*edit)(std::string&)) const {
    std::string bytes = slurp(profile);
    edit(bytes);
    const auto path = dir / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  static void expect_one_line_naming(const CommandResult& run, const fs::path& file,
                                     const char* problem) {
    EXPECT_EQ(run.status, 1);
    EXPECT_TRUE(run.out.empty()) << run.out;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_NE(run.err.find(file.string()), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(problem), std::string::npos) << run.err;
  }

  testing::TempDir dir;
  fs::path profile;
};

TEST_F(ReportCommand, VersionNamesTheReleaseAndTheCommit) {
  const CommandResult r = run("--version");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("vcmon-report: vcmon ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(" (commit "), std::string::npos) << r.out;
}

TEST_F(ReportCommand, PrintsTheTextReportByDefault) {
  const CommandResult r = run(profile.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("Top-down profile"), std::string::npos);
  EXPECT_NE(r.out.find("<== tune here"), std::string::npos);
}

TEST_F(ReportCommand, WritesJsonToAFile) {
  const auto output = dir / "report.json";
  const CommandResult r =
      run(profile.string() + " --format json -o " + output.string() + " --depth 3");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const auto document = nlohmann::json::parse(slurp(output));
  EXPECT_EQ(document["filters"]["depth"], 3);
  EXPECT_EQ(document["hot_path"].back()["name"], "p4");
  // Only the report is left behind: no temporary files.
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) {
    ++files;
  }
  EXPECT_EQ(files, 4); // profile, report.json, stdout, stderr
}

TEST_F(ReportCommand, NeverOverwritesTheProfile) {
  const std::string before = slurp(profile);
  const CommandResult r = run(profile.string() + " -o " + profile.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("is the profile itself"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(profile), before);
  // Also through another name for the same file.
  fs::create_symlink(profile, dir / "alias.vcmon");
  EXPECT_EQ(run(profile.string() + " -o " + (dir / "alias.vcmon").string()).status, 2);
  EXPECT_EQ(slurp(profile), before);
}

TEST_F(ReportCommand, MissingProfile) {
  expect_one_line_naming(run((dir / "absent.vcmon").string()), dir / "absent.vcmon",
                         "No such file");
}

TEST_F(ReportCommand, TruncatedProfile) {
  const auto path = damaged("truncated.vcmon", [](std::string& b) { b.resize(b.size() / 2); });
  expect_one_line_naming(run(path.string()), path, "truncated");
}

TEST_F(ReportCommand, CorruptProfile) {
  const auto path = damaged("corrupt.vcmon", [](std::string& b) { b[b.size() / 2] ^= 0x5a; });
  expect_one_line_naming(run(path.string()), path, "corrupt");
}

TEST_F(ReportCommand, NewerVersionProfile) {
  // The format version follows the 8-byte magic, little-endian.
  const auto path = damaged("newer.vcmon", [](std::string& b) { b[8] = 99; });
  expect_one_line_naming(run(path.string()), path, "newer");
}

TEST_F(ReportCommand, NotAProfile) {
  const auto path = dir / "notes.txt";
  std::ofstream(path) << "hello\n";
  expect_one_line_naming(run(path.string()), path, "not a vcmon profile");
}

// A FIFO would block a plain open until some writer came: refused at once instead.
TEST_F(ReportCommand, FifoIsRefusedAtOnce) {
  const auto fifo = dir / "pipe.vcmon";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  // `timeout` ends a blocked run, which then fails the status check.
  const CommandResult r = run(fifo.string(), "timeout 5");
  const auto elapsed = std::chrono::steady_clock::now() - start;
  expect_one_line_naming(r, fifo, "not a regular file (a FIFO)");
  EXPECT_LT(elapsed, std::chrono::seconds(1));
}

TEST_F(ReportCommand, BadOptionsGetOneLineAndStatus2) {
  for (const std::string options : {"--format xml", "--threshold 200", "--rank -1",
                                    "--site fig12.c", "--depth two", "--bogus"}) {
    const CommandResult r = run(profile.string() + " " + options);
    EXPECT_EQ(r.status, 2) << options;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << options << ": " << r.err;
    EXPECT_EQ(r.err.rfind("vcmon-report: ", 0), 0u) << r.err;
  }
}

TEST_F(ReportCommand, RankOutsideTheProfileIsNamed) {
  const CommandResult r = run(profile.string() + " --rank 7");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("rank 7 is not in the profile"), std::string::npos) << r.err;
}

// --rank reads that rank's section alone through the rank index: a damaged other rank does not
// stop it, while the whole report names the damage.
TEST_F(ReportCommand, OneRankIsReadWithoutTheOthers) {
  const fs::path last_rank_damaged =
      damaged("last-rank.vcmon", [](std::string& bytes) { bytes.back() ^= 0x10; });
  const CommandResult one = run(last_rank_damaged.string() + " --rank 0");
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, run(profile.string() + " --rank 0").out);
  expect_one_line_naming(run(last_rank_damaged.string()), last_rank_damaged, "records are corrupt");
}

} // namespace
} // namespace vcmon::report
