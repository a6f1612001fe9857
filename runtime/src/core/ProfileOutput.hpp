// Where and how a profile file is written: a unique name in VCMON_OUTPUT that never
// replaces an existing file, and the one summary line on stderr.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace vcmon::runtime {

// <dir>/<program>-<YYYYmmdd-HHMMSS>-<pid>[-N].vcmon, created empty with O_EXCL so that no
// other run (nor an earlier file) can own the same name; the profile then replaces this
// empty placeholder. Throws tables::ProfileError when no name can be created.
std::filesystem::path reserve_profile_path(const std::filesystem::path& dir,
                                           std::string_view program, std::int64_t unix_ns,
                                           long pid);

// Writes the profile under a fresh name; on failure prints one line naming the problem and
// returns nothing (never throws).
std::optional<std::filesystem::path> write_profile(const tables::Profile& profile,
                                                   const std::filesystem::path& dir);

// This program's name as a file-name part: letters, digits, '-', '_' and '.' only.
std::string program_name();
// The command line, arguments joined by spaces.
std::string command_line();
std::int64_t unix_time_ns();

} // namespace vcmon::runtime
