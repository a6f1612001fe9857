#include "ReportCommandRun.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace vcmon::report::testing {

void expect_one_line(const CommandResult& run, int status, const std::string& problem) {
  EXPECT_EQ(run.status, status) << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_EQ(run.err.rfind("vcmon-report: ", 0), 0u) << run.err;
  EXPECT_NE(run.err.find(problem), std::string::npos) << run.err;
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

CommandResult run_report(const std::filesystem::path& scratch, const std::string& arguments,
                         const std::string& prefix) {
  const auto out = scratch / "stdout", err = scratch / "stderr";
  const std::string command = prefix + " " + VCMON_REPORT_BINARY + " " + arguments + " >" +
                              out.string() + " 2>" + err.string();
  const int raw = std::system(command.c_str());
  CommandResult result;
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  result.out = slurp(out);
  result.err = slurp(err);
  return result;
}

} // namespace vcmon::report::testing
