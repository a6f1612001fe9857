#include "vcmon/tables/WholeFile.hpp"

#include "FileDescriptor.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace vcmon::tables {
namespace {

namespace fs = std::filesystem;

// Enough for one process writing several profiles within a second (MPI_Pcontrol).
constexpr int kNameAttempts = 1000;

// The process's umask, read without changing it (umask(2) sets it, a race with other threads
// creating files): /proc/self/status says it since Linux 4.7; 022 where it does not.
mode_t current_umask() {
  mode_t found = 022;
  if (std::FILE* status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, status) != nullptr) {
      unsigned value = 0;
      if (std::sscanf(line, "Umask: %o", &value) == 1) {
        found = static_cast<mode_t>(value & 0777);
        break;
      }
    }
    std::fclose(status);
  }
  return found;
}

[[noreturn]] void fail(std::string_view what, const fs::path& path, int error) {
  throw std::system_error(error, std::generic_category(),
                          "cannot write " + std::string(what) + " " + path.string());
}

void write_all(int fd, std::span<const std::byte> bytes, std::string_view what,
               const fs::path& target) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      fail(what, target, errno);
    }
    bytes = bytes.subspan(static_cast<std::size_t>(written));
  }
}

// `<target>.incomplete-XXXXXX`, holding the bytes on disk; removed when this object ends
// unless it was renamed.
class TemporaryFile {
public:
  TemporaryFile(const fs::path& target, std::span<const std::byte> bytes, std::string_view what) {
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string name = (dir / (target.filename().string() + ".incomplete-XXXXXX")).string();
    // mkostemp adds O_RDWR|O_CREAT|O_EXCL; the name is fresh, and never a link followed.
    detail::FileDescriptor fd(::mkostemp(name.data(), O_CLOEXEC | O_NOFOLLOW));
    if (!fd.is_open()) {
      fail(what, target, errno);
    }
    try {
      // mkostemp made it 0600; a file the user asked for is as readable as their umask says.
      if (::fchmod(fd.get(), 0666 & ~current_umask()) != 0) {
        fail(what, target, errno);
      }
      write_all(fd.get(), bytes, what, target);
      if (::fsync(fd.get()) != 0 || fd.close() != 0) {
        fail(what, target, errno);
      }
    } catch (...) {
      ::unlink(name.c_str());
      throw;
    }
    path_ = std::move(name);
  }
  ~TemporaryFile() {
    if (!path_.empty()) {
      ::unlink(path_.c_str());
    }
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const char* path() const { return path_.c_str(); }
  // It was renamed: its name is no longer ours to remove.
  void renamed() { path_.clear(); }

private:
  std::string path_;
};

} // namespace

void write_file_replacing(const fs::path& path, std::span<const std::byte> bytes,
                          std::string_view what) {
  TemporaryFile temporary(path, bytes, what);
  if (::rename(temporary.path(), path.c_str()) != 0) {
    fail(what, path, errno);
  }
  temporary.renamed();
}

fs::path write_new_file(const fs::path& dir, std::string_view stem, std::string_view extension,
                        std::span<const std::byte> bytes, std::string_view what) {
  const fs::path first = dir / (std::string(stem) + std::string(extension));
  const TemporaryFile temporary(first, bytes, what);
  for (int n = 0; n < kNameAttempts; ++n) {
    const fs::path path =
        n == 0 ? first
               : dir / (std::string(stem) + "-" + std::to_string(n) + std::string(extension));
    // Both names now refer to the file; the temporary's goes when `temporary` ends.
    if (::link(temporary.path(), path.c_str()) == 0) {
      return path;
    }
    if (errno != EEXIST) {
      fail(what, path, errno);
    }
  }
  fail(what, first, EEXIST);
}

} // namespace vcmon::tables
