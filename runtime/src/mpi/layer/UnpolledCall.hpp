// Whether a process is inside an MPI call the layer cannot poll (one-sided synchronisation, the
// MPI part of a collective or a communicator constructor, a small blocking send): until it
// returns it cannot answer state requests. It says so in a cache line of the node's shared
// segment (StampMail lays them out), so that a rank of its node whose wildcard decision waits
// for it can tell it from a rank that computes: a decision that only such ranks hold up may
// be forced (SafeDecision, docs/deadlock.md), where waiting could hang the program.
#pragma once

#include "mpi/layer/CallerCounters.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace vcmon::runtime::mpi {

// What an unpolled call may wait for. A collective's MPI part and a constructor's complete on
// their own once they started (every member has entered); a small send goes out at once
// unless MPI sends it by rendezvous, when it waits for its receiver; one-sided
// synchronisation may wait for any other process (a lock held elsewhere).
enum class UnpolledWait : std::uint64_t { Completes = 1, Others = 2, Receiver = 3 };

// One process's line: how many of its threads are inside unpolled calls, since when (real
// time, rank 0's base) the first of them is, what that one may wait for and, a send, the
// world rank it sends to.
struct UnpolledMark {
  std::atomic<std::uint64_t> inside{0};
  std::atomic<std::uint64_t> since_rt{0};
  std::atomic<std::uint64_t> wait{0};
  std::atomic<std::int64_t> receiver{-1};
};

// What a rank of this node is inside of.
struct UnpolledState {
  std::uint64_t since_rt = 0; // 0: not inside an unpolled call
  UnpolledWait wait = UnpolledWait::Completes;
  int receiver = -1; // UnpolledWait::Receiver: the world rank the send is addressed to
};

class UnpolledCall {
public:
  // Marks this process as inside an unpolled call, entered at real time `entry_rt`, for the
  // scope's lifetime. A few stores without MPI_THREAD_MULTIPLE (a small send's hot path).
  // `receiver`: a send's destination (world rank), for UnpolledWait::Receiver.
  explicit UnpolledCall(std::uint64_t entry_rt, UnpolledWait wait = UnpolledWait::Completes,
                        int receiver = -1) {
    if (own_ == nullptr) {
      return;
    }
    if (CallerCounters::concurrent_callers()) {
      if (own_->inside.fetch_add(1, std::memory_order_acq_rel) == 0) {
        own_->wait.store(static_cast<std::uint64_t>(wait), std::memory_order_relaxed);
        own_->receiver.store(receiver, std::memory_order_relaxed);
        own_->since_rt.store(entry_rt, std::memory_order_release);
      }
      return;
    }
    own_->wait.store(static_cast<std::uint64_t>(wait), std::memory_order_relaxed);
    own_->receiver.store(receiver, std::memory_order_relaxed);
    own_->since_rt.store(entry_rt, std::memory_order_relaxed);
    own_->inside.store(1, std::memory_order_release);
  }
  ~UnpolledCall() {
    if (own_ == nullptr) {
      return;
    }
    if (CallerCounters::concurrent_callers()) {
      own_->inside.fetch_sub(1, std::memory_order_acq_rel);
    } else {
      own_->inside.store(0, std::memory_order_release);
    }
  }
  UnpolledCall(const UnpolledCall&) = delete;
  UnpolledCall& operator=(const UnpolledCall&) = delete;

  // At MPI_Init: the lines of the processes of this node, by world rank (nullptr: another
  // node), and this process's own. Without a shared segment nothing is marked or known.
  static void attach(std::vector<UnpolledMark*> by_world_rank, UnpolledMark* own) {
    marks_ = std::move(by_world_rank);
    own_ = own;
  }
  static void detach() {
    own_ = nullptr;
    marks_.clear();
  }

  // Whether a thread of this process is inside an unpolled call (false without a segment).
  static bool inside_own() {
    return own_ != nullptr && own_->inside.load(std::memory_order_acquire) != 0;
  }

  // What world rank `rank` is inside of; nullopt when this process cannot tell (another node,
  // no shared segment).
  static std::optional<UnpolledState> state_of(int rank) {
    if (rank < 0 || static_cast<std::size_t>(rank) >= marks_.size() ||
        marks_[static_cast<std::size_t>(rank)] == nullptr) {
      return std::nullopt;
    }
    const UnpolledMark& mark = *marks_[static_cast<std::size_t>(rank)];
    if (mark.inside.load(std::memory_order_acquire) == 0) {
      return UnpolledState{};
    }
    return UnpolledState{mark.since_rt.load(std::memory_order_acquire),
                         static_cast<UnpolledWait>(mark.wait.load(std::memory_order_relaxed)),
                         static_cast<int>(mark.receiver.load(std::memory_order_relaxed))};
  }

private:
  static inline std::vector<UnpolledMark*> marks_;
  static inline UnpolledMark* own_ = nullptr;
};

} // namespace vcmon::runtime::mpi
