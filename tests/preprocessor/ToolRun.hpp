// Runs vcmon-instrument and compilers as real processes for the preprocessor tests.
#pragma once

#include <filesystem>
#include <string>

namespace vcmon::preprocessor::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `command` with /bin/sh in `directory`, capturing stdout and stderr.
CommandResult run_command(const std::string& command,
                          const std::filesystem::path& directory = VCMON_TEST_SOURCE_DIR);

// `vcmon-instrument ARGS`, run in `directory`.
CommandResult run_instrument(const std::string& args,
                             const std::filesystem::path& directory = VCMON_TEST_SOURCE_DIR);

std::string read_text(const std::filesystem::path& path);
std::size_t count_lines(const std::string& text);

// A fresh directory removed at the end of the test.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

private:
  std::filesystem::path path_;
};

} // namespace vcmon::preprocessor::test
