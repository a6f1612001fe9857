// The runtime's messages to the user: one line each on standard error, "vcmon: " first, written
// with one call so that the lines of ranks and threads do not interleave. VCMON_LOG chooses how
// much is said: error, warning, info (the default: also the run's summary line and where the
// profile went) or debug (also how long the monitor's start-up and shutdown took).
#pragma once

#include <string_view>

namespace vcmon::runtime {

enum class LogLevel : int { Error, Warning, Info, Debug };

// Whether messages of `level` are shown: up to the level set, LogLevel::Info until then.
bool logging(LogLevel level);

// The most detailed level shown; Config::from_environment sets it from VCMON_LOG.
void set_log_level(LogLevel level);

// Says one line (printf-style, without the "vcmon: " prefix and the newline) if `level` is shown.
void log_line(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Writes `text` (whole lines, prefixed by the caller) where the messages go, in one call.
void log_text(std::string_view text);

// From now on, messages go where standard error is now (at MPI_Init), even after the program
// closes it or puts one of its own files there: the run's summary line landed in a file the
// program had opened as descriptor 2.
void keep_standard_error();

} // namespace vcmon::runtime
