// An open file descriptor, closed on every path out of its scope.
#pragma once

#include <unistd.h>

namespace vcmon::tables::detail {

class FileDescriptor {
public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    if (this != &other) {
      reset(other.release());
    }
    return *this;
  }
  ~FileDescriptor() { reset(-1); }

  int get() const { return fd_; }
  bool is_open() const { return fd_ >= 0; }
  // Closes now, reporting the error a deferred write may only show here.
  int close() { return ::close(release()); }
  // The descriptor, no longer closed by this object.
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

private:
  void reset(int fd) {
    if (fd_ >= 0) {
      ::close(fd_);
    }
    fd_ = fd;
  }

  int fd_ = -1;
};

} // namespace vcmon::tables::detail
