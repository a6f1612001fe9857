// vcmon-query's bad inputs: each gives one clear line on stderr and a non-zero status, never a
// crash.
#include "vcmon/tables/LiveSegment.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace vcmon::tables;

struct CommandRun {
  int status = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// vcmon-query first removes the segments of this user's jobs whose process is gone, one notice
// each: MPI tests that kill a job leave some, whenever they run beside these. Only the notices
// about `job` (the job queried) are this test's.
std::string without_others_stale_notices(const std::string& err, const std::string& job) {
  std::istringstream lines(err);
  std::string kept;
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("vcmon-query: removed stale segment ") ||
        line.find("-" + job + "-") != std::string::npos) {
      kept += line + "\n";
    }
  }
  return kept;
}

CommandRun vcmon_query(const std::string& arguments) {
  const std::string base = "/tmp/vcmon_query_test_" + std::to_string(::getpid());
  const std::string command =
      std::string(VCMON_QUERY_BINARY) + " " + arguments + " >" + base + ".out 2>" + base + ".err";
  CommandRun run;
  const int raw = std::system(command.c_str());
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  run.out = slurp(base + ".out");
  run.err =
      without_others_stale_notices(slurp(base + ".err"), arguments.substr(0, arguments.find(' ')));
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return run;
}

std::uint32_t uid() {
  return static_cast<std::uint32_t>(::getuid());
}

// A job id no real job has.
std::string unused_job(int n) {
  return std::to_string(8'000'000'000ull + static_cast<std::uint64_t>(::getpid()) * 16 + n);
}

TEST(QueryCommand, UnknownJobIsOneLine) {
  const std::string job = unused_job(0);
  const CommandRun run = vcmon_query(job);
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "vcmon-query: no running job " + job +
                         " of this user on this node (vcmon-query lists them)\n");
  EXPECT_EQ(run.out, "");
}

TEST(QueryCommand, BadOptionsAreOneLine) {
  for (const char* arguments :
       {"not-a-job", "-5", "1 --format pdf", "1 --watch 0", "1 --threshold 200", "1 --rank -1",
        "1 --site nocolon", "--rank 1", "--format json", "--watch 1", "--no-such-option"}) {
    const CommandRun run = vcmon_query(arguments);
    EXPECT_EQ(run.status, 2) << arguments;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << arguments << run.err;
    EXPECT_EQ(run.err.rfind("vcmon-query: ", 0), 0u) << run.err;
  }
}

// The view options are vcmon-report's (report/cli): the same names, the same formats.
TEST(QueryCommand, HelpListsTheReportsViewOptions) {
  const CommandRun run = vcmon_query("--help");
  EXPECT_EQ(run.status, 0);
  for (const char* option : {"--format", "--output", "--rank", "--depth", "--threshold", "--site",
                             "--watch", "--count", "--version"}) {
    EXPECT_NE(run.out.find(option), std::string::npos) << option;
  }
  for (const char* format : {"json", "html", "hatchet", "speedscope", "folded"}) {
    EXPECT_NE(run.out.find(format), std::string::npos) << format;
  }
}

TEST(QueryCommand, VersionNamesTheReleaseAndTheCommit) {
  const CommandRun run = vcmon_query("--version");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out.rfind("vcmon-query: vcmon ", 0), 0u) << run.out;
  EXPECT_NE(run.out.find(" (commit "), std::string::npos) << run.out;
}

// The segment of a crashed rank: removed (and said so), then the job is unknown.
TEST(QueryCommand, StaleSegmentIsRemoved) {
  const std::string job = unused_job(1);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    LiveSegmentIdentity identity;
    identity.key = {uid(), std::stoull(job), 0};
    identity.ranks = 1;
    identity.pid = ::getpid();
    new LiveSegmentWriter(identity); // the process ends without removing it
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  const CommandRun run = vcmon_query(job);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("no running job " + job), std::string::npos) << run.err;
  const std::vector<std::string> left = list_live_segments(uid());
  EXPECT_TRUE(std::none_of(left.begin(), left.end(), [&](const std::string& name) {
    return name.find("-" + job + "-") != std::string::npos;
  })) << "the stale segment is still there";
  // An MPI job starting on this node meanwhile removes this user's stale segments too (as
  // query_example did once in CI): then vcmon-query found none to remove, and says nothing.
  const std::string removed =
      "vcmon-query: removed stale segment /vcmon-" + std::to_string(uid()) + "-" + job + "-0-";
  const std::size_t at = run.err.find(removed);
  if (at == std::string::npos) {
    std::printf("the stale segment was removed by another process first\n");
    return;
  }
  const std::string reason = " (its process is gone)\n";
  EXPECT_EQ(run.err.substr(at + removed.size() + 16, reason.size()), reason) << run.err;
}

TEST(QueryCommand, CorruptSegmentIsOneLine) {
  const std::string job = unused_job(2);
  const std::string name = live_segment_name({uid(), std::stoull(job), 0}, "00000000deadbeef");
  const int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, 4096), 0);
  ::close(fd);
  const CommandRun run = vcmon_query(job);
  ::shm_unlink(name.c_str());
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err,
            "vcmon-query: segment " + name + " is not a vcmon segment (or is being created)\n");
}

} // namespace
