#include "core/Log.hpp"

#include "core/Config.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace vcmon::runtime {
namespace {

constexpr LogLevel kDefaultLevel = LogLevel::Info;
constexpr const char* kLevelNames[] = {"error", "warning", "info", "debug"};

LogLevel level_from_environment() {
  const char* value = std::getenv("VCMON_LOG");
  if (value == nullptr || *value == '\0') {
    return kDefaultLevel;
  }
  for (int level = 0; level <= static_cast<int>(LogLevel::Debug); ++level) {
    if (std::strcmp(value, kLevelNames[level]) == 0) {
      return static_cast<LogLevel>(level);
    }
  }
  if (is_first_process()) {
    std::fprintf(stderr,
                 "vcmon: VCMON_LOG=%s: expected error, warning, info or debug; using default "
                 "info\n",
                 value);
  }
  return kDefaultLevel;
}

} // namespace

bool logging(LogLevel level) {
  static const LogLevel shown = level_from_environment();
  return level <= shown;
}

void log_line(LogLevel level, const char* format, ...) {
  if (!logging(level)) {
    return;
  }
  char line[1024] = "vcmon: ";
  const std::size_t prefix = std::strlen(line);
  std::va_list arguments;
  va_start(arguments, format);
  const int length = std::vsnprintf(line + prefix, sizeof line - prefix - 1, format, arguments);
  va_end(arguments);
  std::size_t end =
      length < 0 ? prefix : std::min(prefix + static_cast<std::size_t>(length), sizeof line - 2);
  line[end++] = '\n';
  // One write: a line is never split between ranks or threads writing at once.
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, line, end);
}

} // namespace vcmon::runtime
