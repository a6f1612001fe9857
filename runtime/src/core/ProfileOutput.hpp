// Where a profile file is written: a unique name in VCMON_OUTPUT that never replaces an
// existing file.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace vcmon::runtime {

// Writes the profile as `<dir>/<program>-<YYYYmmdd-HHMMSS>-<pid><suffix>[-N].vcmon` under a
// name no file had (tables::write_new_profile_file); `suffix` tells snapshots apart
// ("-snapshot-2"). On failure prints one line naming the problem and returns nothing (never
// throws).
std::optional<std::filesystem::path> write_profile(const tables::Profile& profile,
                                                   const std::filesystem::path& dir,
                                                   std::string_view suffix = {});

// `<program>-<YYYYmmdd-HHMMSS>-<pid><suffix>` for a profile that ended at `end_unix_ns`.
std::string profile_stem(std::int64_t end_unix_ns, std::string_view suffix);

// This program's name as a file-name part: letters, digits, '-', '_' and '.' only.
std::string program_name();
// The command line, arguments joined by spaces.
std::string command_line();
std::int64_t unix_time_ns();

} // namespace vcmon::runtime
