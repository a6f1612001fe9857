// How stamps travel from one process to another, each ahead of its message's data (docs/design.md,
// "Stamps beside the data, not inside it"; docs/pmpi.md, "Stamp transport"). Between two ranks of
// one node a stamp goes through a StampRing in shared memory; between nodes, or when that ring is
// full, as a small MPI message on a private duplicate of MPI_COMM_WORLD. Every stamp from one
// process to another carries a sequence number, so the receiver takes them in the order they were
// sent whichever way each went. Stamps of all communicators share the way: the receiver files each
// by its communicator and tag (StampProtocol), where MPI's matching used to do it.
//
// Addresses are ranks in MPI_COMM_WORLD. Callers serialise posting and collecting
// (StampProtocol holds its CallerLock).
#pragma once

#include "mpi/layer/NodeSegment.hpp"
#include "mpi/stamps/StampRing.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace vcmon::runtime::mpi {

class StampMail {
public:
  // At MPI_Init (collective over MPI_COMM_WORLD): rings of `ring_slots` slots (rounded up to a
  // power of two) from every rank of this node to every other (0: every stamp travels as a
  // message).
  static void open(std::uint32_t ring_slots);
  // At MPI_Finalize (collective).
  static void close();

  // Sends `message` (its sequence is set here) to world rank `dest`.
  static void post(int dest, StampMessage message);

  // Hands each stamp from world rank `source` that is next in its order, oldest first, to
  // `deliver(int source, const StampMessage&)`.
  template <typename Deliver> static void collect(int source, Deliver&& deliver) {
    Inbound& from = inbound_[static_cast<std::size_t>(source)];
    for (;;) {
      if (from.ring.valid()) {
        if (const StampMessage* next = from.ring.peek(); next && next->sequence == from.expected) {
          take_ring_head(source, from, *next, deliver);
          continue;
        }
        // A ring with nothing new: MPI is probed only when stamps went the other way, and
        // now and then so that a wait on a stamp still drives MPI's progress (other requests
        // of this process may need it).
        if (from.ring.diverted() == from.messages && ++idle_polls_ % kPollsPerProgress != 0) {
          return;
        }
      }
      StampMessage message;
      if (!receive(source, message)) {
        return;
      }
      take_message(source, message, deliver);
    }
  }

  // Hands every stamp that has arrived from anyone to `deliver`.
  template <typename Deliver> static void collect_all(Deliver&& deliver) {
    for (const int source : ring_sources_) {
      collect(source, deliver);
    }
    for (;;) {
      int source = MPI_ANY_SOURCE;
      StampMessage message;
      if (!receive(source, message)) {
        return;
      }
      take_message(source, message, deliver);
    }
  }

private:
  static constexpr unsigned kPollsPerProgress = 16;

  // What this process knows of the stamps from one rank.
  struct Inbound {
    StampRing ring;             // invalid: that rank is on another node, or rings are off
    std::uint64_t expected = 1; // sequence of the next stamp to take
    std::uint64_t messages = 0; // stamps taken that came as messages
  };
  struct Outbound {
    StampRing ring;
    std::uint64_t sequence = 0; // stamps sent so far
  };

  // Delivers `head`, the stamp at the head of `from`'s ring, the next from `source`.
  template <typename Deliver>
  static void take_ring_head(int source, Inbound& from, const StampMessage& head,
                             Deliver& deliver) {
    const StampMessage message = head; // its slot is free once popped
    from.ring.pop();
    ++from.expected;
    deliver(source, message);
  }

  // The next stamp message from `source` (MPI_ANY_SOURCE: from anyone; set to the sender),
  // if one has arrived.
  static bool receive(int& source, StampMessage& message);

  // A message from `source` is next after the ring stamps sent before it (the ring write
  // preceded the message's send, so they are there).
  template <typename Deliver>
  static void take_message(int source, const StampMessage& message, Deliver& deliver) {
    Inbound& from = inbound_[static_cast<std::size_t>(source)];
    while (from.expected < message.sequence) {
      if (const StampMessage* next = from.ring.peek()) {
        take_ring_head(source, from, *next, deliver);
      }
    }
    ++from.expected;
    ++from.messages;
    deliver(source, message);
  }

  static inline std::vector<Inbound> inbound_;
  static inline std::vector<Outbound> outbound_;
  static inline std::vector<int> ring_sources_;     // world ranks with a ring to this one
  static inline MPI_Comm messages_ = MPI_COMM_NULL; // PrivateWorld's
  static inline std::vector<NodeSegment> segments_; // this node's ranks', mapped (rings on)
  static inline unsigned idle_polls_ = 0;
};

} // namespace vcmon::runtime::mpi
