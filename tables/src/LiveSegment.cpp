#include "vcmon/tables/LiveSegment.hpp"

#include "FileDescriptor.hpp"
#include "vcmon/tables/Profile.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <random>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vcmon::tables {

// Version 6 changed the file's container (the rank index) and one rank's records (the calling
// contexts, which a segment holds too); version 7 only added the file's summary section, which
// no segment holds.
static_assert(kProfileVersion == 7 && kLiveSegmentVersion == 4,
              "a new profile format changes the segments' payload: bump kLiveSegmentVersion");
namespace {

using detail::FileDescriptor;

constexpr std::uint64_t kMagic = 0x564c'4e4f'4d43'5600; // "\0VCMONLV" little-endian
constexpr std::size_t kProgramBytes = 64;
constexpr std::size_t kInitialPayloadBytes = 16 * 1024;
// A reader gives up after this many rewrites in progress (a writer stuck mid-rewrite).
constexpr int kReadAttempts = 100'000;
constexpr std::string_view kPrefix = "vcmon-";
constexpr std::size_t kTagDigits = 16;
// A writer draws a new tag when the name is taken: only chance (or a guess) makes it so.
constexpr int kCreateAttempts = 8;
// Where Linux keeps POSIX shared-memory objects: POSIX itself offers no way to list them.
constexpr const char* kShmDirectory = "/dev/shm";

// At offset 0 of the segment. Every field is one 8-byte word: the identity is written once
// before `magic`, the rest is read and written through std::atomic_ref under the seqlock.
struct SegmentHeader {
  std::uint64_t magic; // kMagic once the identity is complete
  std::uint64_t version;
  std::uint64_t generation; // even: stable; odd: the payload is being rewritten
  std::uint64_t uid;
  std::uint64_t job;
  std::int64_t rank;
  std::int64_t ranks;
  std::int64_t pid;
  std::int64_t start_unix_ns;
  char program[kProgramBytes];
  // Under the seqlock:
  std::uint64_t publications;
  std::int64_t published_unix_ns;
  std::uint64_t tables_bytes;  // at kHeaderBytes
  std::uint64_t records_bytes; // at kHeaderBytes + padded(tables_bytes)
};
constexpr std::size_t kHeaderBytes = (sizeof(SegmentHeader) + 63) / 64 * 64;

constexpr std::size_t padded(std::size_t bytes) {
  return (bytes + 7) / 8 * 8;
}

template <typename T> std::atomic_ref<T> shared(T& field) {
  return std::atomic_ref<T>(field);
}

SegmentHeader& header_of(unsigned char* base) {
  return *reinterpret_cast<SegmentHeader*>(base);
}

std::uint64_t* words_at(unsigned char* base, std::size_t offset) {
  return reinterpret_cast<std::uint64_t*>(base + offset);
}

// Word by word with relaxed atomic accesses: a reader racing the writer sees some words old,
// some new (then the generation tells it to retry), never undefined behaviour.
void store_bytes(std::uint64_t* to, std::span<const std::byte> from) {
  for (std::size_t i = 0; i < from.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, from.data() + i, std::min<std::size_t>(8, from.size() - i));
    shared(to[i / 8]).store(word, std::memory_order_relaxed);
  }
}

void load_bytes(std::vector<std::byte>& to, std::uint64_t* from, std::size_t bytes) {
  to.resize(bytes);
  for (std::size_t i = 0; i < bytes; i += 8) {
    const std::uint64_t word = shared(from[i / 8]).load(std::memory_order_relaxed);
    std::memcpy(to.data() + i, &word, std::min<std::size_t>(8, bytes - i));
  }
}

bool process_is_gone(std::int64_t pid) {
  return pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
}

std::string errno_text() {
  return std::strerror(errno);
}

// Opens segment `name` read-only, never through a link (O_NOFOLLOW) and without waiting for
// a writer should it be a FIFO (O_NONBLOCK), and checks through the descriptor that it is
// a regular file of `uid` that nobody else may access. Throws LiveSegmentError.
FileDescriptor open_own_segment(const std::string& name, std::uint32_t uid, struct stat& info) {
  const std::string foreign = "segment " + name +
                              " is foreign (another owner, access for others, a link or not a " +
                              "regular file); not read";
  FileDescriptor fd(::shm_open(name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0));
  if (!fd.is_open()) {
    if (errno == ENOENT) {
      throw LiveSegmentError("segment " + name + " does not exist (has the job ended?)");
    }
    if (errno == EACCES || errno == ELOOP) {
      throw LiveSegmentError(foreign);
    }
    throw LiveSegmentError("cannot open segment " + name + ": " + errno_text());
  }
  if (::fstat(fd.get(), &info) != 0) {
    throw LiveSegmentError("cannot examine segment " + name + ": " + errno_text());
  }
  if (!S_ISREG(info.st_mode) || info.st_uid != uid || (info.st_mode & 077) != 0) {
    throw LiveSegmentError(foreign);
  }
  return fd;
}

// A read-only mapping of a whole segment of this user, unmapped and closed on scope exit.
class ReadMapping {
public:
  explicit ReadMapping(const std::string& name) : name_(name) {
    struct stat info {};
    fd_ = open_own_segment(name, static_cast<std::uint32_t>(::getuid()), info);
    map(static_cast<std::size_t>(info.st_size));
  }
  ~ReadMapping() {
    if (base_ != nullptr) {
      ::munmap(base_, bytes_);
    }
  }
  ReadMapping(const ReadMapping&) = delete;
  ReadMapping& operator=(const ReadMapping&) = delete;

  // The writer grew the segment: map it again at its present size.
  void remap() {
    struct stat info {};
    if (::fstat(fd_.get(), &info) != 0) {
      throw LiveSegmentError("cannot examine segment " + name_ + ": " + errno_text());
    }
    ::munmap(base_, bytes_);
    base_ = nullptr;
    map(static_cast<std::size_t>(info.st_size));
  }

  unsigned char* base() const { return base_; }
  std::size_t bytes() const { return bytes_; }

private:
  void map(std::size_t bytes) {
    if (bytes < kHeaderBytes) {
      throw LiveSegmentError("segment " + name_ + " is corrupt (truncated to " +
                             std::to_string(bytes) + " bytes)");
    }
    void* base = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd_.get(), 0);
    if (base == MAP_FAILED) {
      throw LiveSegmentError("cannot map segment " + name_ + ": " + errno_text());
    }
    base_ = static_cast<unsigned char*>(base);
    bytes_ = bytes;
  }

  std::string name_;
  FileDescriptor fd_;
  unsigned char* base_ = nullptr;
  std::size_t bytes_ = 0;
};

// Sizes the segment to `bytes` and maps all of it for writing. Throws LiveSegmentError.
unsigned char* map_for_writing(int fd, std::size_t bytes, const std::string& name) {
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    throw LiveSegmentError("cannot size segment " + name + ": " + errno_text());
  }
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    throw LiveSegmentError("cannot map segment " + name + ": " + errno_text());
  }
  return static_cast<unsigned char*>(base);
}

std::string random_tag() {
  std::random_device random;
  const std::uint64_t value = (std::uint64_t{random()} << 32) | random();
  char tag[kTagDigits + 1];
  std::snprintf(tag, sizeof tag, "%016llx", static_cast<unsigned long long>(value));
  return tag;
}

// Creates a segment of `key` under a new random name, which `name` receives.
FileDescriptor create_segment(const LiveSegmentKey& key, std::string& name) {
  for (int attempt = 1;; ++attempt) {
    name = live_segment_name(key, random_tag());
    FileDescriptor fd(
        ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.is_open()) {
      return fd;
    }
    if (errno != EEXIST || attempt == kCreateAttempts) {
      throw LiveSegmentError("cannot create segment " + name + ": " + errno_text());
    }
  }
}

// The identity a complete header holds; throws when the header is not a vcmon segment's.
LiveSegmentIdentity read_identity(const std::string& name, SegmentHeader& header) {
  if (shared(header.magic).load(std::memory_order_acquire) != kMagic) {
    throw LiveSegmentError("segment " + name + " is not a vcmon segment (or is being created)");
  }
  if (header.version != kLiveSegmentVersion) {
    throw LiveSegmentError("segment " + name + " has layout version " +
                           std::to_string(header.version) + "; this vcmon reads version " +
                           std::to_string(kLiveSegmentVersion));
  }
  LiveSegmentIdentity identity;
  identity.key = {static_cast<std::uint32_t>(header.uid), header.job,
                  static_cast<std::int32_t>(header.rank)};
  identity.ranks = static_cast<std::int32_t>(header.ranks);
  identity.pid = header.pid;
  identity.start_unix_ns = header.start_unix_ns;
  identity.program.assign(header.program, strnlen(header.program, kProgramBytes - 1));
  const auto named = parse_live_segment_name(name);
  if (!named || !(*named == identity.key) || identity.key.rank < 0 ||
      identity.key.rank >= identity.ranks) {
    throw LiveSegmentError("segment " + name + " is corrupt (its header names job " +
                           std::to_string(identity.key.job) + " rank " +
                           std::to_string(identity.key.rank) + ")");
  }
  return identity;
}

} // namespace

std::string live_segment_name(const LiveSegmentKey& key, std::string_view tag) {
  return "/" + std::string(kPrefix) + std::to_string(key.uid) + "-" + std::to_string(key.job) +
         "-" + std::to_string(key.rank) + "-" + std::string(tag);
}

std::optional<LiveSegmentKey> parse_live_segment_name(std::string_view name) {
  if (name.starts_with('/')) {
    name.remove_prefix(1);
  }
  if (!name.starts_with(kPrefix)) {
    return std::nullopt;
  }
  name.remove_prefix(kPrefix.size());
  LiveSegmentKey key;
  const char* end = name.data() + name.size();
  auto [p, e1] = std::from_chars(name.data(), end, key.uid);
  if (e1 != std::errc() || p == end || *p != '-') {
    return std::nullopt;
  }
  auto [q, e2] = std::from_chars(p + 1, end, key.job);
  if (e2 != std::errc() || q == end || *q != '-') {
    return std::nullopt;
  }
  auto [r, e3] = std::from_chars(q + 1, end, key.rank);
  if (e3 != std::errc() || r == end || *r != '-' || key.rank < 0) {
    return std::nullopt;
  }
  const std::string_view tag(r + 1, static_cast<std::size_t>(end - r - 1));
  const bool hex = std::all_of(tag.begin(), tag.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
  if (tag.size() != kTagDigits || !hex) {
    return std::nullopt;
  }
  return key;
}

LiveSegmentWriter::LiveSegmentWriter(const LiveSegmentIdentity& identity) {
  FileDescriptor fd = create_segment(identity.key, name_);
  const std::size_t bytes = kHeaderBytes + kInitialPayloadBytes;
  try {
    ::fchmod(fd.get(), 0600); // whatever the umask
    base_ = map_for_writing(fd.get(), bytes, name_);
  } catch (...) {
    ::shm_unlink(name_.c_str());
    throw;
  }
  mapped_bytes_ = bytes;
  fd_ = fd.release();
  SegmentHeader& header = header_of(base_);
  header.version = kLiveSegmentVersion;
  header.uid = identity.key.uid;
  header.job = identity.key.job;
  header.rank = identity.key.rank;
  header.ranks = identity.ranks;
  header.pid = identity.pid;
  header.start_unix_ns = identity.start_unix_ns;
  const std::size_t kept = std::min(identity.program.size(), kProgramBytes - 1);
  std::memcpy(header.program, identity.program.data(), kept);
  shared(header.magic).store(kMagic, std::memory_order_release);
}

LiveSegmentWriter::~LiveSegmentWriter() {
  ::munmap(base_, mapped_bytes_);
  ::close(fd_);
  ::shm_unlink(name_.c_str());
}

void LiveSegmentWriter::grow(std::size_t payload_bytes) {
  const std::size_t bytes = kHeaderBytes + padded(payload_bytes);
  unsigned char* base = map_for_writing(fd_, bytes, name_);
  ::munmap(base_, mapped_bytes_);
  base_ = base;
  mapped_bytes_ = bytes;
}

void LiveSegmentWriter::publish(std::span<const std::byte> tables,
                                std::span<const std::byte> records, std::int64_t now_unix_ns) {
  const std::size_t payload = padded(tables.size()) + padded(records.size());
  std::uint64_t generation = shared(header_of(base_).generation).load(std::memory_order_relaxed);
  shared(header_of(base_).generation).store(generation + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  if (kHeaderBytes + payload > mapped_bytes_) {
    grow(2 * payload); // readers see odd generations until the rewrite below is complete
  }
  SegmentHeader& header = header_of(base_);
  shared(header.publications).fetch_add(1, std::memory_order_relaxed);
  shared(header.published_unix_ns).store(now_unix_ns, std::memory_order_relaxed);
  shared(header.tables_bytes).store(tables.size(), std::memory_order_relaxed);
  shared(header.records_bytes).store(records.size(), std::memory_order_relaxed);
  store_bytes(words_at(base_, kHeaderBytes), tables);
  store_bytes(words_at(base_, kHeaderBytes + padded(tables.size())), records);
  shared(header.generation).store(generation + 2, std::memory_order_release);
}

LiveSnapshot read_live_segment(std::string_view name_view) {
  const std::string name(name_view);
  ReadMapping mapping(name);
  LiveSnapshot snapshot;
  snapshot.name = name;
  snapshot.identity = read_identity(name, header_of(mapping.base()));
  if (process_is_gone(snapshot.identity.pid)) {
    throw LiveSegmentError("segment " + name + " is stale: its process " +
                           std::to_string(snapshot.identity.pid) + " is gone");
  }
  for (int attempt = 0; attempt < kReadAttempts; ++attempt) {
    SegmentHeader& header = header_of(mapping.base());
    const std::uint64_t before = shared(header.generation).load(std::memory_order_acquire);
    if (before % 2 == 1) {
      sched_yield();
      continue;
    }
    const std::uint64_t tables_bytes = shared(header.tables_bytes).load(std::memory_order_relaxed);
    const std::uint64_t records_bytes =
        shared(header.records_bytes).load(std::memory_order_relaxed);
    snapshot.publications = shared(header.publications).load(std::memory_order_relaxed);
    snapshot.published_unix_ns = shared(header.published_unix_ns).load(std::memory_order_relaxed);
    const bool fits =
        tables_bytes <= mapping.bytes() && records_bytes <= mapping.bytes() &&
        kHeaderBytes + padded(tables_bytes) + padded(records_bytes) <= mapping.bytes();
    if (fits) {
      load_bytes(snapshot.tables, words_at(mapping.base(), kHeaderBytes), tables_bytes);
      load_bytes(snapshot.records, words_at(mapping.base(), kHeaderBytes + padded(tables_bytes)),
                 records_bytes);
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    if (shared(header.generation).load(std::memory_order_relaxed) != before) {
      continue; // rewritten meanwhile: what was copied may be torn
    }
    if (!fits) {
      // Consistent extents beyond the mapping: the writer grew the segment after we mapped it.
      const std::size_t mapped = mapping.bytes();
      mapping.remap();
      if (mapping.bytes() == mapped) {
        throw LiveSegmentError("segment " + name + " is corrupt (its payload exceeds it)");
      }
      continue;
    }
    return snapshot;
  }
  throw LiveSegmentError("segment " + name + " is being rewritten without end; try again");
}

std::vector<std::string> list_live_segments(std::uint32_t uid) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(kShmDirectory);
  if (dir == nullptr) {
    return names;
  }
  while (const dirent* entry = ::readdir(dir)) {
    const auto key = parse_live_segment_name(entry->d_name);
    if (!key || key->uid != uid) {
      continue;
    }
    const std::string name = "/" + std::string(entry->d_name);
    try {
      struct stat info {};
      open_own_segment(name, uid, info);
      names.push_back(name);
    } catch (const LiveSegmentError&) {
      // Someone else's file under a name like ours (or one gone meanwhile): not ours to read.
    }
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> remove_stale_live_segments(std::uint32_t uid) {
  std::vector<std::string> removed;
  for (const std::string& name : list_live_segments(uid)) {
    std::int64_t pid = 0;
    try {
      ReadMapping mapping(name);
      pid = read_identity(name, header_of(mapping.base())).pid;
    } catch (const LiveSegmentError&) {
      continue; // foreign, corrupt or being created: not ours to judge
    }
    if (process_is_gone(pid) && ::shm_unlink(name.c_str()) == 0) {
      removed.push_back(name);
    }
  }
  return removed;
}

} // namespace vcmon::tables
