// Files that get their name only once they are complete (profiles, reports). The bytes go to a
// temporary `NAME.incomplete-XXXXXX` beside the target, created with O_CREAT|O_EXCL|O_NOFOLLOW
// (never written through an existing file or symbolic link), are synced, and only then named:
// a writer killed on the way leaves at most that temporary, never an empty or partial NAME.
// Failures throw std::system_error whose message reads "cannot write <what> PATH: <reason>".
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

namespace vcmon::tables {

// Names the bytes `path`, replacing a file of that name (rename).
void write_file_replacing(const std::filesystem::path& path, std::span<const std::byte> bytes,
                          std::string_view what);

// Names the bytes `dir/<stem><extension>`, or `dir/<stem>-N<extension>` for the first free N:
// link(2) never replaces a file, whoever else writes into `dir`. Returns the name.
std::filesystem::path write_new_file(const std::filesystem::path& dir, std::string_view stem,
                                     std::string_view extension, std::span<const std::byte> bytes,
                                     std::string_view what);

} // namespace vcmon::tables
