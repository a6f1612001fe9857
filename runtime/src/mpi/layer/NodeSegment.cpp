#include "mpi/layer/NodeSegment.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>

namespace vcmon::runtime::mpi {
namespace {

// Maps `bytes` of the open segment `fd`, which it closes; nullptr on failure.
char* map_and_close(int fd, std::size_t bytes) {
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  return base == MAP_FAILED ? nullptr : static_cast<char*>(base);
}

int create_exclusive(const std::string& name) {
  return ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

} // namespace

NodeSegment& NodeSegment::operator=(NodeSegment&& other) noexcept {
  std::swap(base_, other.base_);
  std::swap(bytes_, other.bytes_);
  return *this;
}

NodeSegment::~NodeSegment() {
  if (base_ != nullptr) {
    ::munmap(base_, bytes_);
  }
}

std::string NodeSegment::name_of(std::int64_t pid) {
  return "/vcmon-stamps-" + std::to_string(::getuid()) + "-" + std::to_string(pid);
}

NodeSegment NodeSegment::create(std::size_t bytes) {
  const std::string name = name_of(::getpid());
  int fd = create_exclusive(name);
  // A name left by a killed process of this user with the same pid: /dev/shm is sticky, so
  // only a file of this user's can be unlinked.
  if (fd < 0 && errno == EEXIST && ::shm_unlink(name.c_str()) == 0) {
    fd = create_exclusive(name);
  }
  NodeSegment segment;
  if (fd < 0) {
    return segment;
  }
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    ::close(fd);
    ::shm_unlink(name.c_str());
    return segment;
  }
  segment.base_ = map_and_close(fd, bytes);
  segment.bytes_ = bytes;
  if (!segment.valid()) {
    ::shm_unlink(name.c_str());
  }
  return segment;
}

NodeSegment NodeSegment::open(std::int64_t pid, std::size_t bytes) {
  NodeSegment segment;
  const int fd = ::shm_open(name_of(pid).c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0) {
    return segment;
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_uid != ::getuid() ||
      (info.st_mode & 077) != 0 || static_cast<std::size_t>(info.st_size) != bytes) {
    ::close(fd);
    return segment;
  }
  segment.base_ = map_and_close(fd, bytes);
  segment.bytes_ = bytes;
  return segment;
}

void NodeSegment::unlink_own() {
  ::shm_unlink(name_of(::getpid()).c_str());
}

} // namespace vcmon::runtime::mpi
