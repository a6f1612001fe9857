// One process's shared-memory segment, mapped by the other ranks of its node: StampMail's
// rings to that process and its UnpolledCall mark live there. POSIX shared memory made here
// rather than MPI_Win_allocate_shared: MPICH's shared window and the MPI_Comm_split_type it
// needs took 115-157 ms of a 4-rank MPI_Init on two cores, most of the monitor's start-up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace vcmon::runtime::mpi {

class NodeSegment {
public:
  NodeSegment() = default;
  NodeSegment(NodeSegment&& other) noexcept { *this = std::move(other); }
  NodeSegment& operator=(NodeSegment&& other) noexcept;
  NodeSegment(const NodeSegment&) = delete;
  NodeSegment& operator=(const NodeSegment&) = delete;
  ~NodeSegment();

  // The name of process `pid`'s segment (of this user: two users' jobs never meet).
  static std::string name_of(std::int64_t pid);

  // This process's segment of `bytes` zeroed bytes; invalid when it cannot be made (no room
  // in /dev/shm, or another user's file under its name). Only a file of this user's left by
  // an earlier process with the same pid is replaced.
  static NodeSegment create(std::size_t bytes);
  // Process `pid`'s segment, checked through its descriptor (a regular file of this user that
  // nobody else may access, `bytes` long) and never through a link; invalid otherwise.
  static NodeSegment open(std::int64_t pid, std::size_t bytes);

  bool valid() const { return base_ != nullptr; }
  char* base() const { return base_; }
  // Removes the name of this process's segment: once every peer has mapped it, the mappings
  // keep it alive, and nothing is left behind in /dev/shm.
  static void unlink_own();

private:
  char* base_ = nullptr;
  std::size_t bytes_ = 0;
};

} // namespace vcmon::runtime::mpi
