// Communicators without a shadow on which every member runs this layer: those MPI_Comm_idup
// makes from a communicator the layer monitors (the new communicator exists only at completion,
// so the layer cannot give it a shadow, a collective, in the call), and the duplicates of
// those. They stay unmonitored, as on every member, but the layer may still add to them what
// every member adds at the same place: a blocking collective on one is entered through a
// nonblocking barrier on the communicator itself, polled (Collectives::blocking), so that a
// member waiting for the others answers state requests where it would block in MPI (across
// nodes nothing answers for it). Communicators from dynamic processes are never here: a member
// outside this job would not add the barrier.
#pragma once

#include "mpi/layer/HandleTable.hpp"

#include <mpi.h>

#include <cstdint>

namespace vcmon::runtime::mpi {

class UnshadowedCommunicators {
public:
  // After the constructor that made `comm` returned (MPICH gives MPI_Comm_idup's handle at
  // once). A full table leaves the communicator out: it is then entered as before, in MPI.
  void add(MPI_Comm comm) {
    if (comm != MPI_COMM_NULL) {
      table_.insert(comm, 1);
    }
  }
  bool contains(MPI_Comm comm) { return comm != MPI_COMM_NULL && table_.find(comm) != nullptr; }
  // When the program frees or disconnects `comm` (MPI may give its handle to another).
  void remove(MPI_Comm comm) { table_.erase(comm); }

private:
  HandleTable<std::uint8_t, 1024> table_;
};

} // namespace vcmon::runtime::mpi
