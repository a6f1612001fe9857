// How stamps travel from one process to another, each ahead of its message's data (docs/design.md,
// "Stamps beside the data, not inside it"; docs/pmpi.md, "Stamp transport"). Between two ranks of
// one node a stamp goes through a StampRing in shared memory; between nodes, or when that ring is
// full, as a message (StampMessages). Every stamp from one process to another carries a sequence
// number, so the receiver takes them in the order they were sent whichever way each went. Stamps
// of all communicators share the way: the receiver files each by its communicator and tag
// (StampProtocol), where MPI's matching used to do it.
//
// An instance is one process's mail over rings and a message path it is given, so several can
// talk in one process (tests/mpi/StampMailTest.cpp). The layer's one instance, over the node's
// shared memory and the private world, is a ProcessStampMail's, made at MPI_Init and held by the
// process's LayerContext, and used through the process's StampProtocol.
//
// Addresses are ranks in MPI_COMM_WORLD. Callers serialise posting and collecting
// (StampProtocol holds its CallerLock).
#pragma once

#include "mpi/stamps/StampMessages.hpp"
#include "mpi/stamps/StampRing.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace vcmon::runtime::mpi {

class StampMail {
public:
  // While a receiver finds its ring from a rank empty and no stamp diverted, it still probes
  // the message path once in this many polls (see collect).
  static constexpr unsigned kPollsPerProgress = 16;

  // The rings between this process and one rank of its node.
  struct PeerRings {
    int peer = -1;       // its world rank
    StampRing to_peer;   // this process produces
    StampRing from_peer; // this process consumes
  };

  // Mail among `world_size` ranks: through `rings` with the ranks they name (views on memory
  // the caller keeps mapped while this mail lives), by `messages` with the others and past a
  // full ring.
  StampMail(int world_size, std::span<const PeerRings> rings, StampMessages& messages);
  StampMail(const StampMail&) = delete;
  StampMail& operator=(const StampMail&) = delete;

  // Sends `message` (its sequence is set here) to world rank `dest`.
  void post(int dest, StampMessage message);

  // Hands each stamp from world rank `source` that is next in its order, oldest first, to
  // `deliver(int source, const StampMessage&)`, which answers whether the caller has what it
  // looked for. Once it has, the message path is not probed again: a probe that finds nothing
  // walks all of MPI's unexpected messages (MPICH over UCX masks the tag, so UCX searches its
  // whole queue), and a receiver taking 20 000 messages from a queue of thousands, each probe
  // ending in a miss, spent 95 % of its time there (transparency.synchronous_flood.messages:
  // 2.7 s against 0.2 s plain, past 25 s on a loaded host).
  template <typename Deliver> void collect(int source, Deliver&& deliver) {
    collect_from(source, deliver, true);
  }

  // Hands every stamp that has arrived from anyone to `deliver`.
  template <typename Deliver> void collect_all(Deliver&& deliver) {
    const auto all = [&](int sender, const StampMessage& message) {
      deliver(sender, message);
      return false;
    };
    for (const int source : ring_sources_) {
      collect_from(source, all, false);
    }
    // When every rank of the job (this one included) has a ring to this one, each ring says
    // how many stamps went as messages, and those were taken above. A probe from any source
    // would end in a miss, which walks all of MPI's unexpected messages (see collect): it is
    // made only now and then, to drive MPI's progress.
    if (all_ringed_ && ++idle_polls_ % kPollsPerProgress != 0) {
      return;
    }
    for (;;) {
      int source = StampMessages::kAnySource;
      StampMessage message;
      if (!messages_.receive(source, message)) {
        return;
      }
      take_message(source, message, deliver);
    }
  }

private:
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

  // collect(); `progress`: probe the message path now and then although a ring says nothing
  // went that way (collect_all probes for progress once for all sources).
  template <typename Deliver> void collect_from(int source, Deliver& deliver, bool progress) {
    Inbound& from = inbound_[static_cast<std::size_t>(source)];
    bool found = false;
    const auto take = [&](int sender, const StampMessage& message) {
      found = deliver(sender, message) || found;
    };
    for (;;) {
      if (from.ring.valid()) {
        if (const StampMessage* next = from.ring.peek(); next && next->sequence == from.expected) {
          take_ring_head(source, from, *next, take);
          continue;
        }
        // A ring with nothing new: the message path is probed only when stamps went the other
        // way, and now and then so that a wait on a stamp still drives MPI's progress (other
        // requests of this process may need it).
        if (from.ring.diverted() == from.messages &&
            (!progress || ++idle_polls_ % kPollsPerProgress != 0)) {
          return;
        }
      }
      StampMessage message;
      if (found || !messages_.receive(source, message)) {
        return;
      }
      take_message(source, message, take);
    }
  }

  // Delivers `head`, the stamp at the head of `from`'s ring, the next from `source`.
  template <typename Deliver>
  static void take_ring_head(int source, Inbound& from, const StampMessage& head,
                             Deliver& deliver) {
    const StampMessage message = head; // its slot is free once popped
    from.ring.pop();
    ++from.expected;
    deliver(source, message);
  }

  // A message from `source` is next after the ring stamps sent before it (the ring write
  // preceded the message's send, so they are there).
  template <typename Deliver>
  void take_message(int source, const StampMessage& message, Deliver& deliver) {
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

  std::vector<Inbound> inbound_;
  std::vector<Outbound> outbound_;
  std::vector<int> ring_sources_; // world ranks with a ring to this one
  bool all_ringed_ = false;       // every rank of the job, this one too, has a ring to it
  StampMessages& messages_;
  unsigned idle_polls_ = 0;
};

} // namespace vcmon::runtime::mpi
