// The profile on disk: written whole (WholeFile.hpp) and read from regular files only.
#include "FileDescriptor.hpp"

#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/WholeFile.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace vcmon::tables {
namespace {

using detail::FileDescriptor;

[[noreturn]] void fail(const std::string& action, const std::filesystem::path& path, int error) {
  throw ProfileError("cannot " + action + " " + path.string() + ": " + std::strerror(error));
}

const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) {
    return "a directory";
  }
  if (S_ISFIFO(mode)) {
    return "a FIFO";
  }
  if (S_ISSOCK(mode)) {
    return "a socket";
  }
  if (S_ISCHR(mode) || S_ISBLK(mode)) {
    return "a device";
  }
  return "a special file";
}

} // namespace

void write_profile_file(const Profile& profile, const std::filesystem::path& path) {
  const std::vector<std::byte> bytes = encode_profile(profile);
  try {
    write_file_replacing(path, bytes, "profile");
  } catch (const std::system_error& error) {
    throw ProfileError(error.what());
  }
}

std::filesystem::path write_new_profile_file(const Profile& profile,
                                             const std::filesystem::path& dir,
                                             std::string_view stem) {
  const std::vector<std::byte> bytes = encode_profile(profile);
  try {
    return write_new_file(dir, stem, ".vcmon", bytes, "profile");
  } catch (const std::system_error& error) {
    throw ProfileError(error.what());
  }
}

Profile read_profile_file(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer; it is refused below.
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.is_open()) {
    fail("read profile", path, errno);
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    fail("read profile", path, errno);
  }
  if (!S_ISREG(info.st_mode)) {
    throw ProfileError("cannot read profile " + path.string() + ": not a regular file (" +
                       file_type_name(info.st_mode) + ")");
  }
  std::vector<std::byte> bytes(static_cast<std::size_t>(info.st_size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      fail("read profile", path, errno);
    }
    if (got == 0) {
      break; // the file shrank while being read; the decoder reports the truncation
    }
    done += static_cast<std::size_t>(got);
  }
  bytes.resize(done);
  try {
    return decode_profile(bytes);
  } catch (const ProfileError& e) {
    throw ProfileError(path.string() + ": " + e.what());
  }
}

} // namespace vcmon::tables
