// NodeSegment on its own: real POSIX shared memory in /dev/shm, no MPI.
#include "mpi/layer/NodeSegment.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

using vcmon::runtime::mpi::NodeSegment;

namespace {

std::string path_of(const std::string& name) {
  return "/dev/shm" + name;
}

bool exists(const std::string& name) {
  struct stat info {};
  return ::lstat(path_of(name).c_str(), &info) == 0;
}

// A pid no process has (above pid_max's largest possible value).
constexpr std::int64_t kNoProcess = 9'000'000'000;

TEST(NodeSegment, OwnSegmentIsZeroedAndSharedWithWhoOpensIt) {
  const std::string name = NodeSegment::name_of(::getpid());
  NodeSegment own = NodeSegment::create(4096);
  ASSERT_TRUE(own.valid());
  EXPECT_TRUE(exists(name));
  EXPECT_EQ(own.base()[0], 0);
  EXPECT_EQ(own.base()[4095], 0);
  NodeSegment peer = NodeSegment::open(::getpid(), 4096);
  ASSERT_TRUE(peer.valid());
  own.base()[100] = 42;
  EXPECT_EQ(peer.base()[100], 42);
  NodeSegment::unlink_own();
  EXPECT_FALSE(exists(name));
  // The mappings outlive the name.
  peer.base()[200] = 7;
  EXPECT_EQ(own.base()[200], 7);
}

TEST(NodeSegment, StaleFileOfThisUserIsReplaced) {
  const std::string name = NodeSegment::name_of(::getpid());
  const int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, 64), 0);
  ::close(fd);
  NodeSegment own = NodeSegment::create(8192);
  ASSERT_TRUE(own.valid());
  EXPECT_TRUE(NodeSegment::open(::getpid(), 8192).valid());
  NodeSegment::unlink_own();
}

TEST(NodeSegment, NameThatCannotBeReplacedLeavesNoSegment) {
  const std::string name = NodeSegment::name_of(::getpid());
  ASSERT_EQ(::mkdir(path_of(name).c_str(), 0700), 0);
  EXPECT_FALSE(NodeSegment::create(4096).valid());
  EXPECT_TRUE(exists(name)); // not the monitor's to remove
  ::rmdir(path_of(name).c_str());
}

TEST(NodeSegment, OpenRefusesWhatIsNotAPeersSegment) {
  EXPECT_FALSE(NodeSegment::open(kNoProcess, 4096).valid()); // none there
  const std::string name = NodeSegment::name_of(kNoProcess);
  const int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, 4096), 0);
  EXPECT_FALSE(NodeSegment::open(kNoProcess, 8192).valid()); // another size
  ASSERT_EQ(::fchmod(fd, 0644), 0);
  EXPECT_FALSE(NodeSegment::open(kNoProcess, 4096).valid()); // readable by others
  ::close(fd);
  ::shm_unlink(name.c_str());
  const std::string link = path_of(name);
  ASSERT_EQ(::symlink("/dev/null", link.c_str()), 0);
  EXPECT_FALSE(NodeSegment::open(kNoProcess, 4096).valid()); // a link
  ::unlink(link.c_str());
}

} // namespace
