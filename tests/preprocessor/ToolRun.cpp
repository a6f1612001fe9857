#include "ToolRun.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

#include <cstdlib>
#include <unistd.h>

namespace vcmon::preprocessor::test {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot read " + path.string());
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t count_lines(const std::string& text) {
  std::size_t lines = 0;
  for (const char c : text) {
    lines += c == '\n' ? 1 : 0;
  }
  return lines;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "vcmon-pre-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed");
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ignored);
  std::filesystem::remove_all(path_, ignored);
}

CommandResult run_command(const std::string& command, const std::filesystem::path& directory) {
  const TempDir capture;
  const auto out = capture.path() / "out";
  const auto err = capture.path() / "err";
  const std::string line = "cd '" + directory.string() + "' && (" + command + ") >'" +
                           out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(line.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_text(out);
  result.err = read_text(err);
  return result;
}

CommandResult run_instrument(const std::string& args, const std::filesystem::path& directory) {
  return run_command(std::string("'") + VCMON_INSTRUMENT + "' " + args, directory);
}

} // namespace vcmon::preprocessor::test
