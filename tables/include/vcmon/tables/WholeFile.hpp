// Files that get their name only once they are complete (profiles, reports). The bytes go to a
// temporary `NAME.incomplete-XXXXXX` beside the target, created with O_CREAT|O_EXCL|O_NOFOLLOW
// (never written through an existing file or symbolic link), are synced, and only then named:
// a writer killed on the way leaves at most that temporary, never an empty or partial NAME.
// Failures throw std::system_error whose message reads "cannot write <what> PATH: <reason>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace vcmon::tables {

// The temporary `<target>.incomplete-XXXXXX` itself, for bytes written piece by piece, possibly
// by other processes through its path (the runtime's ranks, through MPI-IO), before it is
// named. Removed when this object ends unless it was named.
class IncompleteFile {
public:
  // Creates it empty, as readable as the umask says.
  IncompleteFile(const std::filesystem::path& target, std::string_view what);
  ~IncompleteFile();
  IncompleteFile(const IncompleteFile&) = delete;
  IncompleteFile& operator=(const IncompleteFile&) = delete;

  const std::string& path() const { return path_; }
  void write_at(std::uint64_t offset, std::span<const std::byte> bytes);
  // Syncs what anyone wrote to it and closes it, reporting what a deferred write shows only
  // there; needed before it is named.
  void finish();
  // Renames it `path`, replacing a file of that name.
  void name_replacing(const std::filesystem::path& path);
  // Links it to `dir/<stem><extension>` or the first free `dir/<stem>-N<extension>` (never
  // replacing a file) and removes the temporary name. Returns the name.
  std::filesystem::path name_new(const std::filesystem::path& dir, std::string_view stem,
                                 std::string_view extension);

private:
  std::filesystem::path target_; // for messages
  std::string what_;
  std::string path_;
  int fd_ = -1;
};

// Names the bytes `path`, replacing a file of that name (rename).
void write_file_replacing(const std::filesystem::path& path, std::span<const std::byte> bytes,
                          std::string_view what);

// Names the bytes `dir/<stem><extension>`, or `dir/<stem>-N<extension>` for the first free N:
// link(2) never replaces a file, whoever else writes into `dir`. Returns the name.
std::filesystem::path write_new_file(const std::filesystem::path& dir, std::string_view stem,
                                     std::string_view extension, std::span<const std::byte> bytes,
                                     std::string_view what);

} // namespace vcmon::tables
