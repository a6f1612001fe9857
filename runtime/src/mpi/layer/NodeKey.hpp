// Which node a process runs on, and which clock it reads, as numbers processes can exchange.
#pragma once

#include <cstdint>

namespace vcmon::runtime::mpi {

// Equal for two processes exactly when they share a node (and so its /dev/shm): a hash of the
// host name with the boot's id, which tells apart hosts cloned under one name.
std::uint64_t node_key();

// Equal for two processes exactly when they read the same CLOCK_MONOTONIC: their node, and the
// offsets of their time namespace (a container may run with its own).
std::uint64_t clock_domain_key();

} // namespace vcmon::runtime::mpi
