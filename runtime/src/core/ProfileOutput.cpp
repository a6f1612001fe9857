#include "core/ProfileOutput.hpp"
#include "core/Log.hpp"

#include <cerrno> // program_invocation_short_name
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string_view>
#include <unistd.h>

namespace vcmon::runtime {
std::string profile_stem(std::int64_t end_unix_ns, std::string_view suffix) {
  const std::time_t seconds = static_cast<std::time_t>(end_unix_ns / 1'000'000'000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  return program_name() + "-" + stamp + "-" + std::to_string(::getpid()) + std::string(suffix);
}

std::optional<std::filesystem::path> write_profile(const tables::Profile& profile,
                                                   const std::filesystem::path& dir,
                                                   std::string_view suffix) {
  try {
    return tables::write_new_profile_file(profile, dir,
                                          profile_stem(profile.meta.end_unix_ns, suffix));
  } catch (const std::exception& error) {
    log_line(LogLevel::Error, "the profile was not written: %s", error.what());
    return std::nullopt;
  }
}

std::string program_name() {
  std::string name = program_invocation_short_name;
  for (char& c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.';
    if (!keep) {
      c = '_';
    }
  }
  return name.empty() || name[0] == '.' ? "program" + name : name;
}

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!raw.empty() && raw.back() == '\0') {
    raw.pop_back();
  }
  for (char& c : raw) {
    if (c == '\0') {
      c = ' ';
    }
  }
  return raw;
}

std::int64_t unix_time_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

} // namespace vcmon::runtime
