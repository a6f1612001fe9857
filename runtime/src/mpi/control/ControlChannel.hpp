// The control channel (docs/deadlock.md, "How the runtime uses it"): a private duplicate of
// MPI_COMM_WORLD on which a rank with an undecided wildcard receive, or a real-deadlock check, asks
// other ranks for their state, and on which the null-message baseline announces bounds. Every rank
// answers from wherever it is: from the loop its blocking call waits in (WaitPolicy), and from the
// wrappers it runs through (serve_if_due, at most every 100 us of real time). A rank inside a call
// the layer does not poll cannot answer: an asker never waits for it beyond a deadline, and takes
// no answer as no knowledge. One that computes outside MPI is answered for by its answerer
// thread, when the asker shares its node (RunningAnswers). All of it is the monitor's own work.
//
// The protocol is ControlExchange's; an instance of this class is one process's channel, made at
// MPI_Init over MPI (MpiControlTransport), this process's waiting calls and its stamp protocol,
// and forwards to it. The LayerContext owns the process's and passes it down to what waits
// (WaitPolicy), checks for deadlocks, announces null messages and asks other ranks.
#pragma once

#include "mpi/control/ControlMessages.hpp"
#include "mpi/control/WaitPlace.hpp"
#include "mpi/control/WaitRegistry.hpp"
#include "mpi/control/WaitersOnThisRank.hpp"
#include "mpi/control/WaitingWork.hpp"
#include "mpi/layer/UnpolledCall.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "core/Monitor.hpp"

#include "vcmon/deadlock/ProcessState.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace vcmon::runtime::mpi {

class ControlChannel {
public:
  // At MPI_Init, after the private world (collective over MPI_COMM_WORLD): answers with what
  // `stamps` has received; a call that waits makes `waiting` progress.
  ControlChannel(Monitor& monitor, StampProtocol& stamps, WaitingWork& waiting);
  ~ControlChannel();
  ControlChannel(const ControlChannel&) = delete;
  ControlChannel& operator=(const ControlChannel&) = delete;

  // The stamp protocol whose counts and bounds the channel reports and learns.
  StampProtocol& stamps() const { return stamps_; }

  // At MPI_Finalize entry, at virtual time `entry_vt`: from here on this rank answers
  // Finished; returns once every rank is in MPI_Finalize, so no decider can still be waiting
  // for an answer, and this rank has taken in every request and null message sent to it and
  // every answer it was owed (collective). Returns the latest rank's `entry_vt`.
  std::uint64_t finish(Monitor& monitor, std::uint64_t entry_vt);

  // Answers the state requests that have arrived and takes in null messages; true when there
  // were any. The caller charges the work to intrusion.
  bool serve();
  // From a wrapper of a running process entered at `entry`: serves at most every 100 us. The
  // clock it answers with is `entry`'s: the layer's own work after it is intrusion, and a send
  // stamped with `entry` must not precede the clock this process reported.
  void serve_if_due(const vclock::Moment& entry) {
    running_vt_ = entry.vt;
    if (entry.rt >= next_serve_rt_.load(std::memory_order_relaxed)) {
      next_serve_rt_.store(entry.rt + kServePeriodNs, std::memory_order_relaxed);
      serve();
    }
  }
  // What a waiting call lets progress besides serving (WaitingWork); true when there was work.
  bool progress_waiting(Monitor& monitor) { return waiting_.progress_waiting(monitor, stamps_); }

  // Asks each of `ranks` (world ranks, not this one) for its state and waits for the answers,
  // serving requests meanwhile (two deciders may ask each other), but never longer than the
  // reply deadline, nor once the calling thread's own blocked call (if any) is satisfied, nor
  // for a rank that has sent this one a stamp since (its answer is moot) or that is stuck in an
  // unpolled MPI call (it may be waiting for this one to move on). `interest`: world ranks
  // whose stamp counts every reply carries; with `Counts::Unclaimed` also how many of those
  // received wait in an inbox unclaimed by a posted receive (for a deadlock proof only: it
  // makes every reply a word a rank longer).
  using Counts = ReplyCounts;
  std::vector<StateReply> request_states(std::span<const int> ranks,
                                         std::span<const int> interest = {},
                                         Counts counts = Counts::Stamps);

  // Null-message baseline: announces to every other rank that this one sends nothing before
  // `bound`; its later stamps then never go below it (the lookahead is a promise the clock's
  // floor keeps). `collective`: the instance (CollectiveWait's id) this rank waits in, 0 none.
  void announce_null(Monitor& monitor, std::uint64_t bound, std::uint64_t collective);
  // The collective instance `rank`'s latest null message said it waits in (0: none). It stays
  // there until the instance completes, which needs every member: a member that has not left
  // it yet knows the other is still inside.
  std::uint64_t null_collective_of(int rank);

  // The MPI call the layer cannot poll (UnpolledCall) that world rank `rank`, of this node, has
  // been inside for a fiftieth of the deadlock timeout (at least 20 ms), so that it will not
  // answer soon; nullopt when it is not stuck in one (or this process cannot tell). Static: the
  // marks are the node's (UnpolledCall), not the channel's.
  static std::optional<UnpolledState> stuck_unpolled(Monitor& monitor, int rank);

  // The ranks known to wait for this one alone.
  WaitersOnThisRank& waiters() { return waiters_; }

  // The blocking calls this process's threads wait in.
  WaitRegistry& waits() { return waits_; }
  const WaitRegistry& waits() const { return waits_; }

  // This process's state now, as it would answer.
  deadlock::ProcessState own_state(Monitor& monitor, WaitPlace* place) const;

  // The clock a thread beside the program answers with for this process (RunningAnswerer): its
  // clock now, shown (VirtualClock::show_beside), when the process runs outside the layer's
  // waits; with MPI_THREAD_MULTIPLE the earliest of its threads' clocks, so that the answer
  // raises none of them. nullopt when it waits in a registered or unpolled call (it answers
  // itself, or is known to be stuck), has finished, or has more threads than the clock sees.
  std::optional<std::uint64_t> clock_beside(Monitor& monitor) const;

private:
  struct Exchange;

  static constexpr std::uint64_t kServePeriodNs = 100'000;

  StampProtocol& stamps_;
  WaitingWork& waiting_;
  WaitersOnThisRank waiters_;
  WaitRegistry waits_;                 // before the exchange, which asks it
  std::unique_ptr<Exchange> exchange_; // over MPI, with this process as its host
  std::atomic<std::uint64_t> next_serve_rt_{0};
  // From MPI_Finalize on, this rank answers Finished.
  std::atomic<bool> finished_{false};
  // The virtual time of the wrapper this thread runs in, as it answers. Per thread, not per
  // channel: it is where this thread is. Written by every send: initial-exec TLS is one
  // instruction, the default model in a shared library a call (like this_thread_state,
  // core/ThisThread.hpp).
  static inline thread_local std::uint64_t running_vt_ __attribute__((tls_model("initial-exec"))) =
      0;
};

} // namespace vcmon::runtime::mpi
