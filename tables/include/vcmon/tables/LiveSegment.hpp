// The node-local shared-memory segment in which a running rank publishes its records
// (docs/query.md, "Live publication"), and the reader vcmon-query uses. One POSIX shared-memory
// object per rank, named /vcmon-<uid>-<job>-<rank>-<tag>, mode 0600; the tag is random, so that no
// other user can take a rank's name in advance. Readers only open segments without following links
// or blocking, and only use this user's regular files that nobody else may access. A seqlock (a
// generation counter, odd while the writer rewrites the payload) lets readers copy a
// consistent payload without ever blocking the writer. Layout and rules: docs/query.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vcmon::tables {

// Goes up with the segment's layout and with every profile format: its payload is encoded with
// the profile codec of the writer (1: profile format 3; 2: format 4; 3: format 5; 4: format 6),
// and a reader of another version must say so rather than call the segment corrupt.
inline constexpr std::uint32_t kLiveSegmentVersion = 4;

// Every problem with a segment: missing, foreign, stale, corrupt or of a newer version. The
// message is one line naming the segment.
class LiveSegmentError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Where a segment's name comes from.
struct LiveSegmentKey {
  std::uint32_t uid = 0;
  std::uint64_t job = 0; // MPI_COMM_WORLD rank 0's pid
  std::int32_t rank = 0;
  bool operator==(const LiveSegmentKey&) const = default;
};

// "/vcmon-<uid>-<job>-<rank>-<tag>" (the shm_open name); `tag` is 16 lowercase hex digits.
std::string live_segment_name(const LiveSegmentKey& key, std::string_view tag);
// The key of a name as live_segment_name writes it (with or without the leading '/').
std::optional<LiveSegmentKey> parse_live_segment_name(std::string_view name);

// Fixed when the segment is created.
struct LiveSegmentIdentity {
  LiveSegmentKey key;
  std::int32_t ranks = 0;
  std::int64_t pid = 0;
  std::int64_t start_unix_ns = 0;
  std::string program; // at most 63 bytes are kept
};

// One consistent copy of a segment's payload.
struct LiveSnapshot {
  std::string name; // the segment's
  LiveSegmentIdentity identity;
  std::uint64_t publications = 0;
  std::int64_t published_unix_ns = 0;
  std::vector<std::byte> tables;  // encode_profile of the run's metadata and graph, no ranks
  std::vector<std::byte> records; // encode_rank_records of the rank's records
};

// The publishing side: creates the segment and rewrites its payload. One writer thread.
class LiveSegmentWriter {
public:
  // Creates the segment (mode 0600) under a name nothing had: a fresh random tag, O_EXCL.
  // Throws LiveSegmentError.
  explicit LiveSegmentWriter(const LiveSegmentIdentity& identity);
  ~LiveSegmentWriter(); // removes the segment
  LiveSegmentWriter(const LiveSegmentWriter&) = delete;
  LiveSegmentWriter& operator=(const LiveSegmentWriter&) = delete;

  // Rewrites the payload under the seqlock, growing the segment when it does not fit.
  // Allocates nothing when the segment is large enough.
  void publish(std::span<const std::byte> tables, std::span<const std::byte> records,
               std::int64_t now_unix_ns);

  const std::string& name() const { return name_; }

private:
  void grow(std::size_t payload_bytes);

  std::string name_;
  int fd_ = -1; // owned: open from the end of the constructor to the destructor
  unsigned char* base_ = nullptr;
  std::size_t mapped_bytes_ = 0;
};

// Reads one segment: throws LiveSegmentError when it is missing, foreign (another owner,
// access for others, a link or not a regular file), was left by a process that is gone, is
// corrupt or of another layout version. Never blocks the writer; retries while a rewrite is in
// progress (bounded).
LiveSnapshot read_live_segment(std::string_view name);

// Names (with the leading '/') of every vcmon segment of `uid` on this node: what carries a
// segment's name but is not uid's own (regular, no access for others) is not listed.
std::vector<std::string> list_live_segments(std::uint32_t uid);

// Removes the segments of `uid` whose publishing process is gone (a crash, a kill); returns
// their names. Segments of live processes, and ones still being created, are left alone.
std::vector<std::string> remove_stale_live_segments(std::uint32_t uid);

} // namespace vcmon::tables
