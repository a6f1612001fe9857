#include "core/Log.hpp"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace vcmon::runtime {
namespace {

std::atomic<int> shown_level{static_cast<int>(LogLevel::Info)};
std::atomic<int> message_fd{STDERR_FILENO};

} // namespace

bool logging(LogLevel level) {
  return static_cast<int>(level) <= shown_level.load(std::memory_order_relaxed);
}

void set_log_level(LogLevel level) {
  shown_level.store(static_cast<int>(level), std::memory_order_relaxed);
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
  log_text({line, end});
}

void log_text(std::string_view text) {
  [[maybe_unused]] const ssize_t written =
      ::write(message_fd.load(std::memory_order_relaxed), text.data(), text.size());
}

void keep_standard_error() {
  if (message_fd.load() != STDERR_FILENO) {
    return; // kept already (MPI_Init after MPI_Finalize is erroneous)
  }
  if (const int kept = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3); kept >= 0) {
    message_fd.store(kept);
  }
}

} // namespace vcmon::runtime
