// The way a stamp travels when no ring carries it (StampMail): to a rank of another node, or
// past a full ring. In the layer an MPI message on the private world (StampMail's open); in
// tests an in-process queue. A stamp through a ring costs a few stores, one through here an MPI
// call, beside which a virtual call is nothing.
//
// Addresses are ranks in MPI_COMM_WORLD. Between one sender and one receiver the messages keep
// the order they were sent in, as MPI's are.
#pragma once

#include "mpi/stamps/StampRing.hpp"

namespace vcmon::runtime::mpi {

class StampMessages {
public:
  // receive's `source` for a message from anyone.
  static constexpr int kAnySource = -1;

  virtual ~StampMessages() = default;

  virtual void send(int dest, const StampMessage& message) = 0;
  // A message that has arrived from `source`, the oldest of its sender's (kAnySource: from
  // anyone; `source` is then set to the sender), if there is one; never waits.
  virtual bool receive(int& source, StampMessage& message) = 0;
};

} // namespace vcmon::runtime::mpi
