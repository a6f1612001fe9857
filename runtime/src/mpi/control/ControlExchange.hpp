// The control channel's protocol (docs/deadlock.md, "How the runtime uses it"), one instance per
// rank over a ControlTransport: state requests and their replies, null messages, and the last
// exchange at MPI_Finalize. What it needs of the process it runs in comes from a ControlHost.
// The runtime makes one over MPI (ControlChannel); tests make several over an in-process
// transport.
#pragma once

#include "mpi/control/ControlMessages.hpp"
#include "mpi/control/ControlTransport.hpp"
#include "mpi/layer/RunningAnswers.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace vcmon::runtime::mpi {

// This rank's own state and counts, as its replies carry them, and the clock and blocked call
// an asker's waiting depends on.
class ControlHost {
public:
  virtual ~ControlHost() = default;
  // Files every stamp that has arrived: what follows accounts for every message already here.
  virtual void file_arrived_stamps() = 0;
  // This process's state now, as it answers, and where it waits.
  virtual deadlock::ProcessState own_state(WaitPlace& place) = 0;
  // Changes whenever a thread of this process starts or stops waiting (WaitRegistry).
  virtual std::uint64_t generation() = 0;
  // Stamps sent to and received from world rank `rank`, over all communicators.
  virtual std::uint64_t stamps_sent_to(int rank) = 0;
  virtual std::uint64_t stamps_received_from(int rank) = 0;
  // Per world rank, the stamps received that wait in an inbox unclaimed by a posted receive.
  virtual void count_unclaimed(std::span<std::uint64_t> per_rank) = 0;
  // World rank `rank` sends nothing before `bound` (a null message, once its stamps arrived).
  virtual void raise_bound(int rank, std::uint64_t bound) = 0;
  // Real time, in ns: an asker's deadline.
  virtual std::uint64_t now_rt() = 0;
  // Whether world rank `rank` is stuck in a call the layer cannot poll: it will not answer soon.
  virtual bool stuck_unpolled(int rank) = 0;
  // Whether the calling thread waits in a blocked call that is already satisfied.
  virtual bool own_call_satisfied() = 0;
  // Asks the answerer beside world rank `rank` (a thread of its process: RunningAnswers) to
  // answer for it: a rank that runs outside MPI cannot answer itself. False when it has none.
  virtual bool ask_beside(int rank) = 0;
  // That answerer's answer to the latest ask, once given (clock_ns 0: it could not answer).
  virtual std::optional<RunningAnswer> answered_beside(int rank) = 0;
};

// How long an asker waits for replies. A rank that answers late shows the deadline too short for
// this machine (oversubscribed ranks are scheduled late): it doubles, up to the last.
struct ReplyDeadline {
  std::uint64_t first_ns = 20'000'000;
  std::uint64_t last_ns = 2'000'000'000;
  // After this long without a reply a rank's answerer is asked (ControlHost::ask_beside): a
  // rank that calls MPI answers within 100 us (ControlChannel::serve_if_due) when it is
  // scheduled.
  std::uint64_t beside_ns = 2'000'000;
};

class ControlExchange {
public:
  ControlExchange(ControlTransport& transport, ControlHost& host, int world_rank, int world_size,
                  ReplyDeadline deadline = {});
  ControlExchange(const ControlExchange&) = delete;
  ControlExchange& operator=(const ControlExchange&) = delete;

  // Answers the state requests that have arrived and takes in null messages; true when there
  // were any. One thread serves at a time: another returns false at once.
  bool serve();

  // Asks each of `ranks` (world ranks, not this one) for its state and waits for the answers,
  // serving requests meanwhile (two deciders may ask each other), but never longer than the
  // reply deadline, nor once the calling thread's own blocked call is satisfied, nor for a rank
  // that has sent this one a stamp since (its answer is moot) or that is stuck in an unpolled
  // call (it may be waiting for this one to move on). An answer to an earlier request is not
  // one to this. `interest`: world ranks whose counts every reply carries.
  std::vector<StateReply> request_states(std::span<const int> ranks, std::span<const int> interest,
                                         ReplyCounts counts);

  // Tells every other rank that this one sends nothing before `bound` and waits in collective
  // instance `collective` (0: none).
  void announce_null(std::uint64_t bound, std::uint64_t collective);
  // The collective instance `rank`'s latest null message said it waits in (0: none).
  std::uint64_t null_collective_of(int rank) const;

  // The last exchange (collective): returns once this rank has taken in every request and null
  // message sent to it, and received an answer to every request of its own, so that nothing is
  // left unmatched; returns the latest rank's `entry_vt`.
  std::uint64_t finish(std::uint64_t entry_vt);

private:
  // Requests and null messages sent to each rank, and taken from each, so that the last
  // exchange takes in every one: indexed rank * kCountedKinds + kind.
  enum CountedKind : int { kRequests = 0, kNulls = 1, kCountedKinds = 2 };
  // A state request that has arrived. Of several from one asker only the latest counts (the
  // asker waits for that one); the reply stands for all of them.
  struct Request {
    int source = 0;
    std::uint64_t sequence = 0;
    ReplyCounts counts = ReplyCounts::Stamps;
    std::vector<std::uint64_t> interest;
    std::uint64_t count = 1;
  };

  void count_sent(int rank, CountedKind kind);
  void count_taken(int rank, CountedKind kind);
  bool absorb_null_messages();
  void apply_nulls();
  std::vector<Request> receive_requests();
  void answer(const std::vector<Request>& requests);
  // Receives one reply if one has arrived (under asking_), its words in `words`, and settles
  // the requests it answers; its sender, or -1.
  int receive_reply(std::span<const std::uint64_t>& words);

  ControlTransport& transport_;
  ControlHost& host_;
  const int world_rank_;
  const int world_size_;
  std::atomic_flag serving_ = ATOMIC_FLAG_INIT;
  // One thread asks at a time: replies are told apart by sequence number, not by thread.
  std::mutex asking_;
  std::uint64_t last_sequence_ = 0;
  std::uint64_t reply_deadline_ns_;
  const std::uint64_t last_deadline_ns_;
  const std::uint64_t beside_ns_;
  // Per rank (under asking_), its answerer (RunningAnswers): since when the rank has owed a
  // reply (0: it owes none), whether an ask of its answerer is open, when to ask next (the wait
  // doubles while it owes, up to kBesideAtMostNs: an answerer that answers for a rank that
  // computes for minutes need not wake every few ms), and the latest request its answerer
  // answered (the rank's own reply to that comes later, and is no sign of a deadline too short).
  struct Beside {
    std::uint64_t owed_since_rt = 0;
    bool asking = false;
    std::uint64_t next_ask_rt = 0;
    std::uint64_t wait_ns = 0;
    std::uint64_t answered_sequence = 0;
  };
  static constexpr std::uint64_t kBesideAtMostNs = 128'000'000;
  std::vector<Beside> beside_;
  // Asks `rank`'s answerer when due, and takes its answer to request `sequence` into `reply`
  // once given; true then.
  bool answer_beside(int rank, std::uint64_t now_rt, std::uint64_t sequence, StateReply& reply);
  // Per rank, requests sent to it that it has not answered yet (under asking_).
  std::vector<std::uint32_t> unanswered_;
  std::uint64_t unanswered_total_ = 0;
  std::unique_ptr<std::atomic<std::uint64_t>[]> sent_counts_; // any thread
  std::vector<std::uint64_t> taken_counts_;                   // the serving thread only
  // Per source, null messages whose bound waits for stamps still in flight: (bound, stamps).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pending_nulls_;
  // Per source, the collective instance its latest null message said it waits in.
  std::unique_ptr<std::atomic<std::uint64_t>[]> null_collectives_;
};

} // namespace vcmon::runtime::mpi
