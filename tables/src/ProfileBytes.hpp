// Where a profile's bytes are read from: memory (decode_profile) or a file read piece by piece
// with pread (ProfileReader), so that opening a profile never loads every rank's records.
#pragma once

#include "FileDescriptor.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vcmon::tables::detail {

class ProfileBytes {
public:
  virtual ~ProfileBytes() = default;
  virtual std::uint64_t size() const = 0;
  // Bytes [offset, offset + n), or fewer where the file ends first; `buffer` holds them when
  // they are not in memory already.
  virtual std::span<const std::byte> read(std::uint64_t offset, std::size_t n,
                                          std::vector<std::byte>& buffer) const = 0;
};

class MemoryBytes final : public ProfileBytes {
public:
  explicit MemoryBytes(std::span<const std::byte> bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  std::span<const std::byte> read(std::uint64_t offset, std::size_t n,
                                  std::vector<std::byte>& buffer) const override;

private:
  std::span<const std::byte> bytes_;
};

class FileBytes final : public ProfileBytes {
public:
  // `fd` is a regular file open for reading, `size` bytes long.
  FileBytes(FileDescriptor fd, std::uint64_t size) : fd_(std::move(fd)), size_(size) {}
  std::uint64_t size() const override { return size_; }
  // Throws ProfileError when the read fails.
  std::span<const std::byte> read(std::uint64_t offset, std::size_t n,
                                  std::vector<std::byte>& buffer) const override;

private:
  FileDescriptor fd_;
  std::uint64_t size_;
};

} // namespace vcmon::tables::detail
