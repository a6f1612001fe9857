// Runs the real vcmon-report binary as a user would, capturing what it says.
#pragma once

#include <filesystem>
#include <string>

namespace vcmon::report::testing {

struct CommandResult {
  int status = -1; // the exit status, -1 when it did not exit
  std::string out, err;
};

// `PREFIX vcmon-report ARGUMENTS` through the shell, its output kept in files under `scratch`.
// `prefix`: a command that runs vcmon-report (e.g. `timeout 5`), or nothing.
CommandResult run_report(const std::filesystem::path& scratch, const std::string& arguments,
                         const std::string& prefix = "");

// Asserts that the run printed nothing on stdout and exactly one line on stderr, starting
// "vcmon-report: " and naming `problem`, and exited with `status`.
void expect_one_line(const CommandResult& run, int status, const std::string& problem);

// A file's bytes.
std::string slurp(const std::filesystem::path& path);

} // namespace vcmon::report::testing
