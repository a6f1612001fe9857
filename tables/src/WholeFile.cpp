#include "vcmon/tables/WholeFile.hpp"

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

} // namespace

IncompleteFile::IncompleteFile(const fs::path& target, std::string_view what)
    : target_(target), what_(what) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string name = (dir / (target.filename().string() + ".incomplete-XXXXXX")).string();
  // mkostemp adds O_RDWR|O_CREAT|O_EXCL; the name is fresh, and never a link followed.
  fd_ = ::mkostemp(name.data(), O_CLOEXEC | O_NOFOLLOW);
  if (fd_ < 0) {
    fail(what_, target_, errno);
  }
  path_ = std::move(name);
  // mkostemp made it 0600; a file the user asked for is as readable as their umask says.
  if (::fchmod(fd_, 0666 & ~current_umask()) != 0) {
    const int error = errno;
    ::close(fd_);
    ::unlink(path_.c_str());
    fail(what_, target_, error);
  }
}

IncompleteFile::~IncompleteFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!path_.empty()) {
    ::unlink(path_.c_str());
    path_.clear();
  }
}

void IncompleteFile::write_at(std::uint64_t offset, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      fail(what_, target_, errno);
    }
    bytes = bytes.subspan(static_cast<std::size_t>(written));
    offset += static_cast<std::uint64_t>(written);
  }
}

void IncompleteFile::finish() {
  const int fd = fd_;
  fd_ = -1;
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    fail(what_, target_, error);
  }
  if (::close(fd) != 0) {
    fail(what_, target_, errno);
  }
}

void IncompleteFile::name_replacing(const fs::path& path) {
  if (::rename(path_.c_str(), path.c_str()) != 0) {
    fail(what_, path, errno);
  }
  path_.clear(); // no longer ours to remove
}

fs::path IncompleteFile::name_new(const fs::path& dir, std::string_view stem,
                                  std::string_view extension) {
  for (int n = 0; n < kNameAttempts; ++n) {
    const fs::path path =
        n == 0 ? dir / (std::string(stem) + std::string(extension))
               : dir / (std::string(stem) + "-" + std::to_string(n) + std::string(extension));
    // Both names now refer to the file; the temporary's goes when this object ends.
    if (::link(path_.c_str(), path.c_str()) == 0) {
      return path;
    }
    if (errno != EEXIST) {
      fail(what_, path, errno);
    }
  }
  fail(what_, dir / (std::string(stem) + std::string(extension)), EEXIST);
}

void write_file_replacing(const fs::path& path, std::span<const std::byte> bytes,
                          std::string_view what) {
  IncompleteFile file(path, what);
  file.write_at(0, bytes);
  file.finish();
  file.name_replacing(path);
}

fs::path write_new_file(const fs::path& dir, std::string_view stem, std::string_view extension,
                        std::span<const std::byte> bytes, std::string_view what) {
  IncompleteFile file(dir / (std::string(stem) + std::string(extension)), what);
  file.write_at(0, bytes);
  file.finish();
  return file.name_new(dir, stem, extension);
}

} // namespace vcmon::tables
