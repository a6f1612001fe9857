#include "ProfileBytes.hpp"

#include "vcmon/tables/Profile.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <unistd.h>

namespace vcmon::tables::detail {

std::span<const std::byte> MemoryBytes::read(std::uint64_t offset, std::size_t n,
                                             std::vector<std::byte>& /*buffer*/) const {
  if (offset >= bytes_.size()) {
    return {};
  }
  return bytes_.subspan(offset, std::min<std::uint64_t>(n, bytes_.size() - offset));
}

std::span<const std::byte> FileBytes::read(std::uint64_t offset, std::size_t n,
                                           std::vector<std::byte>& buffer) const {
  // Never more than the file holds, whatever a hostile size asked for.
  buffer.resize(offset >= size_ ? 0 : std::min<std::uint64_t>(n, size_ - offset));
  std::size_t done = 0;
  while (done < buffer.size()) {
    const ssize_t got = ::pread(fd_.get(), buffer.data() + done, buffer.size() - done,
                                static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      throw ProfileError(std::string("cannot read: ") + std::strerror(errno));
    }
    if (got == 0) {
      break; // the file shrank while being read; the decoder reports the truncation
    }
    done += static_cast<std::size_t>(got);
  }
  buffer.resize(done);
  return buffer;
}

} // namespace vcmon::tables::detail
