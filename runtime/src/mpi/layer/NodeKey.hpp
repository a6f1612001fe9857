// Which node a process runs on, as a number processes can exchange.
#pragma once

#include <cstdint>

namespace vcmon::runtime::mpi {

// Equal for two processes exactly when they share a node (and so its /dev/shm and its
// CLOCK_MONOTONIC): a hash of the host name with the boot's id, which tells apart hosts cloned
// under one name.
std::uint64_t node_key();

} // namespace vcmon::runtime::mpi
