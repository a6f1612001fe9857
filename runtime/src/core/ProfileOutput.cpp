#include "core/ProfileOutput.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace vcmon::runtime {

std::filesystem::path reserve_profile_path(const std::filesystem::path& dir,
                                           std::string_view program, std::int64_t unix_ns,
                                           long pid) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ns / 1'000'000'000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  const std::string stem = std::string(program) + "-" + stamp + "-" + std::to_string(pid);
  // The suffix only matters when one process writes several profiles in one second.
  constexpr int kAttempts = 1000;
  for (int n = 0; n < kAttempts; ++n) {
    const std::string name = stem + (n == 0 ? "" : "-" + std::to_string(n)) + ".vcmon";
    const std::filesystem::path path = dir / name;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::close(fd);
      return path;
    }
    if (errno != EEXIST) {
      throw tables::ProfileError("cannot create " + path.string() + ": " + std::strerror(errno));
    }
  }
  throw tables::ProfileError("no free profile name like " + (dir / stem).string() + ".vcmon");
}

std::optional<std::filesystem::path> write_profile(const tables::Profile& profile,
                                                   const std::filesystem::path& dir) {
  std::filesystem::path path;
  try {
    path = reserve_profile_path(dir, program_name(), profile.meta.end_unix_ns, ::getpid());
    tables::write_profile_file(profile, path);
    return path;
  } catch (const std::exception& error) {
    if (!path.empty()) {
      std::error_code ignored;
      std::filesystem::remove(path, ignored); // our own empty placeholder
    }
    std::fprintf(stderr, "vcmon: the profile was not written: %s\n", error.what());
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
