// The shared-memory segment on its own: names, a consistent payload under a concurrent writer
// (the seqlock), growth while readers read, stale, foreign, squatted and corrupt segments.
#include "vcmon/tables/LiveSegment.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

using namespace vcmon::tables;

// A job id no real job has (real ones are pids), different in each test process.
std::uint64_t test_job(std::uint64_t n) {
  return 9'000'000'000ull + static_cast<std::uint64_t>(::getpid()) * 16 + n;
}

std::uint32_t uid() {
  return static_cast<std::uint32_t>(::getuid());
}

LiveSegmentIdentity identity_of(std::uint64_t job, std::int32_t rank = 0) {
  LiveSegmentIdentity identity;
  identity.key = {uid(), job, rank};
  identity.ranks = 4;
  identity.pid = ::getpid();
  identity.start_unix_ns = 1234;
  identity.program = "live_segment_test";
  return identity;
}

// Publication k: the first 8 bytes hold k, the rest is k's low byte; sizes vary with k and
// every 500th one is large enough to make the segment grow.
std::vector<std::byte> payload(std::uint64_t k, std::size_t base) {
  const std::size_t size = k % 500 == 499 ? 200'000 + k : base + k % 300;
  std::vector<std::byte> bytes(size, static_cast<std::byte>(k & 0xff));
  std::memcpy(bytes.data(), &k, sizeof k);
  return bytes;
}

// Whether `bytes` is exactly payload(k, base) for the k it starts with.
bool is_whole(const std::vector<std::byte>& bytes, std::size_t base) {
  if (bytes.size() < 8) {
    return false;
  }
  std::uint64_t k = 0;
  std::memcpy(&k, bytes.data(), sizeof k);
  return bytes == payload(k, base);
}

std::string read_error(const std::string& name) {
  try {
    read_live_segment(name);
  } catch (const LiveSegmentError& error) {
    return error.what();
  }
  return "";
}

// A name as a writer would draw it, with a tag no writer drew.
std::string made_up_name(std::uint64_t job, std::int32_t rank = 0) {
  return live_segment_name({uid(), job, rank}, "00000000deadbeef");
}

// The names of `job`'s segments on this node, as the listing finds them.
std::vector<std::string> names_of_job(std::uint64_t job) {
  std::vector<std::string> names;
  for (const std::string& name : list_live_segments(uid())) {
    if (parse_live_segment_name(name)->job == job) {
      names.push_back(name);
    }
  }
  return names;
}

std::size_t open_descriptors() {
  const std::filesystem::directory_iterator fds("/proc/self/fd");
  return static_cast<std::size_t>(std::distance(begin(fds), end(fds)));
}

// A segment file made by hand: `mode`, `bytes` long, filled with `fill`.
void make_raw_segment(const std::string& name, mode_t mode, std::size_t bytes, unsigned char fill) {
  const int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, mode);
  ASSERT_GE(fd, 0) << name;
  ::fchmod(fd, mode);
  std::vector<unsigned char> data(bytes, fill);
  ASSERT_EQ(::write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  ::close(fd);
}

TEST(LiveSegment, NamesRoundTrip) {
  const LiveSegmentKey key{1000, 4242, 3};
  EXPECT_EQ(live_segment_name(key, "0123456789abcdef"), "/vcmon-1000-4242-3-0123456789abcdef");
  EXPECT_EQ(parse_live_segment_name("/vcmon-1000-4242-3-0123456789abcdef"), key);
  EXPECT_EQ(parse_live_segment_name("vcmon-1000-4242-3-0123456789abcdef"), key);
  for (const char* bad :
       {"vcmon-1000-4242-3", "vcmon-1000-4242-3-", "vcmon-1000-4242-3-0123456789abcde",
        "vcmon-1000-4242-3-0123456789ABCDEF", "vcmon-1000-4242-3-0123456789abcdeg",
        "vcmon-1000-4242-x-0123456789abcdef", "vcmon--1-2-0123456789abcdef",
        "other-1-2-3-0123456789abcdef", "vcmon-1-2--3-0123456789abcdef"}) {
    EXPECT_FALSE(parse_live_segment_name(bad)) << bad;
  }
}

TEST(LiveSegment, ReadsWhatWasPublishedAndRemovesItAtTheEnd) {
  const LiveSegmentIdentity identity = identity_of(test_job(0), 2);
  std::string name;
  {
    LiveSegmentWriter writer(identity);
    name = writer.name();
    writer.publish(payload(7, 16), payload(8, 64), 5555);
    EXPECT_EQ(parse_live_segment_name(name), identity.key);
    const LiveSnapshot snapshot = read_live_segment(name);
    EXPECT_EQ(snapshot.name, name);
    EXPECT_EQ(snapshot.identity.key, identity.key);
    EXPECT_EQ(snapshot.identity.ranks, 4);
    EXPECT_EQ(snapshot.identity.pid, ::getpid());
    EXPECT_EQ(snapshot.identity.program, "live_segment_test");
    EXPECT_EQ(snapshot.publications, 1u);
    EXPECT_EQ(snapshot.published_unix_ns, 5555);
    EXPECT_EQ(snapshot.tables, payload(7, 16));
    EXPECT_EQ(snapshot.records, payload(8, 64));
    const auto listed = list_live_segments(identity.key.uid);
    EXPECT_NE(std::find(listed.begin(), listed.end(), name), listed.end());
    struct stat info {};
    const int fd = ::shm_open(name.c_str(), O_RDONLY, 0);
    ASSERT_GE(fd, 0);
    ::fstat(fd, &info);
    ::close(fd);
    EXPECT_EQ(info.st_mode & 0777, 0600u); // only the job's user
  }
  EXPECT_NE(read_error(name).find("does not exist"), std::string::npos) << read_error(name);
}

// The seqlock: readers racing a writer (which also grows the segment now and then) only ever
// see whole publications, and never block it.
TEST(LiveSegment, ReadersNeverSeeATornPayload) {
  LiveSegmentWriter writer(identity_of(test_job(1)));
  writer.publish(payload(0, 8), payload(0, 24), 0);
  constexpr std::uint64_t kPublications = 5000;
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> reads{0};
  std::atomic<std::uint64_t> torn{0};
  auto reader = [&] {
    std::uint64_t last = 0;
    while (!done.load()) {
      const LiveSnapshot s = read_live_segment(writer.name());
      if (!is_whole(s.tables, 8) || !is_whole(s.records, 24)) {
        torn.fetch_add(1);
      }
      std::uint64_t k = 0;
      std::memcpy(&k, s.records.data(), sizeof k);
      std::uint64_t t = 0;
      std::memcpy(&t, s.tables.data(), sizeof t);
      if (k != t || k < last || s.publications != k + 1) {
        torn.fetch_add(1); // tables and records of different publications, or time going back
      }
      last = k;
      reads.fetch_add(1);
    }
  };
  std::thread r1(reader);
  std::thread r2(reader);
  // At least kPublications, and on until the readers have raced it a while: on a loaded
  // machine they may not have run at all before 5000 publications were done (14 ms).
  constexpr std::uint64_t kReads = 200;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::uint64_t k = 1;
  for (;
       k < kPublications || (reads.load() < kReads && std::chrono::steady_clock::now() < deadline);
       ++k) {
    writer.publish(payload(k, 8), payload(k, 24), static_cast<std::int64_t>(k));
    if (k % 64 == 0) {
      sched_yield(); // let the readers in on a machine with few cores
    }
  }
  done.store(true);
  r1.join();
  r2.join();
  EXPECT_EQ(torn.load(), 0u);
  EXPECT_GE(reads.load(), kReads);
  const LiveSnapshot last = read_live_segment(writer.name());
  EXPECT_EQ(last.records, payload(k - 1, 24));
}

// A rank that died without removing its segment: reading says stale, cleanup removes it.
TEST(LiveSegment, StaleSegmentsOfDeadProcessesAreRefusedAndRemoved) {
  const std::uint64_t job = test_job(2);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    LiveSegmentIdentity identity = identity_of(job);
    identity.pid = ::getpid();
    auto* writer = new LiveSegmentWriter(identity); // never destroyed: the process "crashes"
    writer->publish(payload(1, 8), payload(1, 8), 1);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  const std::vector<std::string> names = names_of_job(job);
  ASSERT_EQ(names.size(), 1u);
  const std::string& name = names.front();
  // An MPI job starting on this node meanwhile (or vcmon-query) removes this user's stale
  // segments too: then this one is gone before it is read or removed here, never readable.
  const std::string before = read_error(name);
  const bool gone_before = before.find("does not exist") != std::string::npos;
  if (!gone_before) {
    EXPECT_NE(before.find("is stale: its process " + std::to_string(child) + " is gone"),
              std::string::npos)
        << before;
  }
  const auto removed = remove_stale_live_segments(uid());
  const bool removed_here = std::find(removed.begin(), removed.end(), name) != removed.end();
  const std::string after = read_error(name);
  EXPECT_NE(after.find("does not exist"), std::string::npos) << after;
  if (!removed_here) {
    std::printf("segment %s was removed by another process\n", name.c_str());
  }
}

// Each writer draws its own name, so two of the same rank (a stale one, say) never collide.
TEST(LiveSegment, WritersOfTheSameRankGetNamesOfTheirOwn) {
  const LiveSegmentIdentity identity = identity_of(test_job(3));
  LiveSegmentWriter first(identity);
  LiveSegmentWriter second(identity);
  EXPECT_NE(first.name(), second.name());
  EXPECT_EQ(names_of_job(identity.key.job).size(), 2u);
  second.publish(payload(2, 8), payload(2, 8), 2);
  EXPECT_EQ(read_live_segment(second.name()).publications, 1u);
  EXPECT_EQ(read_live_segment(first.name()).publications, 0u);
}

// What another user leaves under names like ours: a readable file, a link, a FIFO, a
// directory. Nothing lists them, cleanup leaves them, reading them says "foreign" at once (the
// FIFO does not block), and none of it keeps a descriptor open.
TEST(LiveSegment, SquattedNamesAreSkippedWithoutKeepingADescriptor) {
  const std::string readable = made_up_name(test_job(7), 0);
  const std::string link = made_up_name(test_job(7), 1);
  const std::string fifo = made_up_name(test_job(7), 2);
  const std::string directory = made_up_name(test_job(7), 3);
  make_raw_segment(readable, 0644, 4096, 0);
  const std::string shm = "/dev/shm";
  ASSERT_EQ(::symlink((shm + readable).c_str(), (shm + link).c_str()), 0);
  ASSERT_EQ(::mkfifo((shm + fifo).c_str(), 0600), 0);
  ASSERT_EQ(::mkdir((shm + directory).c_str(), 0700), 0);
  const std::size_t before = open_descriptors();
  EXPECT_TRUE(names_of_job(test_job(7)).empty());
  remove_stale_live_segments(uid());
  for (const std::string& name : {readable, link, fifo, directory}) {
    EXPECT_NE(read_error(name).find("is foreign"), std::string::npos) << read_error(name);
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::symlink_status(shm + name))) << name;
  }
  EXPECT_EQ(open_descriptors(), before);
  for (const std::string& name : {readable, link, fifo}) {
    ::unlink((shm + name).c_str());
  }
  ::rmdir((shm + directory).c_str());
}

TEST(LiveSegment, ForeignAndCorruptSegmentsGiveOneClearMessage) {
  const std::string readable = made_up_name(test_job(4));
  make_raw_segment(readable, 0644, 4096, 0);
  EXPECT_NE(read_error(readable).find("is foreign"), std::string::npos) << read_error(readable);
  ::shm_unlink(readable.c_str());

  const std::string truncated = made_up_name(test_job(5));
  make_raw_segment(truncated, 0600, 16, 0);
  EXPECT_NE(read_error(truncated).find("is corrupt (truncated to 16 bytes)"), std::string::npos)
      << read_error(truncated);
  ::shm_unlink(truncated.c_str());

  const std::string garbage = made_up_name(test_job(6));
  make_raw_segment(garbage, 0600, 4096, 0x5a);
  EXPECT_NE(read_error(garbage).find("is not a vcmon segment"), std::string::npos)
      << read_error(garbage);
  // Cleanup leaves what it cannot judge.
  remove_stale_live_segments(uid());
  EXPECT_NE(read_error(garbage).find("is not a vcmon segment"), std::string::npos);
  ::shm_unlink(garbage.c_str());
}

} // namespace
