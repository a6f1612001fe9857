// Handles shaped like MPICH's, for the layer's tables tested without MPI: the kind bits high,
// the object's index low, as the tables see real ones.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace vcmon::runtime::mpi::testing {

// A request handle: kind bits 10 (direct).
inline MPI_Request request(int index) {
  return static_cast<MPI_Request>(static_cast<std::int32_t>(0xac000000u) + index);
}

// A message handle (MPI_Mprobe's).
inline MPI_Message message(int index) {
  return static_cast<MPI_Message>(static_cast<std::int32_t>(0x6c000000u) + index);
}

} // namespace vcmon::runtime::mpi::testing
