// What a blocking MPI call of this process waits for, in the terms of the deadlock module
// (deadlock::ProcessState): the state this process reports to a decider while it waits in
// WaitPolicy's loop, and the starting point of a real-deadlock check. Descriptions live on the
// waiting call's stack and are built into a state only when someone asks; WaitRegistry makes
// them visible to the thread that answers, for as long as the call waits.
#pragma once

#include "mpi/control/WaitPlace.hpp"
#include "mpi/layer/ProgramErrorHandlers.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/stamps/StampProtocol.hpp"

#include "vcmon/deadlock/ProcessState.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>

namespace vcmon::runtime::mpi {

class BlockedCall {
public:
  BlockedCall(WaitPlace place, std::uint64_t since_vt) : place_(place), since_vt_(since_vt) {}
  virtual ~BlockedCall() = default;
  BlockedCall(const BlockedCall&) = delete;
  BlockedCall& operator=(const BlockedCall&) = delete;

  WaitPlace place() const { return place_; }
  std::uint64_t since_vt() const { return since_vt_; }
  // Fills activity, clock_ns, waits_on (world ranks), present_arrival_ns and collective.
  // `waiting_thread`: the caller is the thread that waits in the call, and may read what only
  // that thread writes (a communicator's inbox), for the freshest description.
  void describe(deadlock::ProcessState& state, bool waiting_thread) const {
    state.clock_ns = since_vt_;
    describe_wait(state, waiting_thread);
  }
  // Whether what the call waits for is already there (its next poll returns), checked without
  // side effects: a process that only has to notice is not blocked. Only the waiting thread
  // itself may ask (the check may read state that thread alone writes).
  virtual bool satisfied() const { return false; }
  // Whether only the arrival of a message ends the wait (a receive or probe waiting for its
  // stamp), not a partner's receive or a collective's other members.
  virtual bool waits_for_message() const { return false; }
  // Whether the clock runs on while the call waits: its end continues the clock no earlier than
  // where it is then, as waiting for a request the layer does not track (partitioned,
  // one-sided, generalized) is the program's own time. Only the waiting thread may ask.
  virtual bool keeps_clock_running() const { return false; }

protected:
  virtual void describe_wait(deadlock::ProcessState& state, bool waiting_thread) const = 0;

  // The world ranks of `shadow`'s peers, or of `peer` alone (MPI_ANY_SOURCE: every peer but
  // this process itself).
  static void add_peers(deadlock::ProcessState& state, const Shadow& shadow, int peer) {
    if (peer != MPI_ANY_SOURCE) {
      state.waits_on.push_back(shadow.world_rank_of(peer));
      return;
    }
    for (int p = 0; p < shadow.peers; ++p) {
      if (p != shadow.self) {
        state.waits_on.push_back(shadow.world_rank_of(p));
      }
    }
  }

private:
  WaitPlace place_;
  std::uint64_t since_vt_;
};

// A receive or probe from one peer or any (OR-wait), or a send waiting for its receiver.
class PeerWait final : public BlockedCall {
public:
  // A send, or a receive whose message is already chosen: it waits for `peer` until
  // `*request` completes (a state exchange stops waiting for answers once it has: a blocking
  // send's check waited out its 20 ms deadline for a computing receiver after the match).
  PeerWait(StampProtocol& stamps, WaitPlace place, std::uint64_t since_vt, const Shadow& shadow,
           int peer, const MPI_Request* request)
      : BlockedCall(place, since_vt), stamps_(stamps), shadow_(shadow), peer_(peer),
        request_(request) {}
  // A receive or probe from `peer` (or MPI_ANY_SOURCE) with `tag`, waiting for the stamp of its
  // message.
  PeerWait(StampProtocol& stamps, WaitPlace place, std::uint64_t since_vt, const Shadow& shadow,
           int peer, int tag)
      : BlockedCall(place, since_vt), stamps_(stamps), shadow_(shadow), peer_(peer), tag_(tag) {}

  // A wildcard waiting for safety: the earliest candidate already there, as its last attempt
  // saw it. Written by the waiting thread, read by another thread that answers a state request
  // (the waiting thread itself looks at the inbox: stamps filed since count too).
  void set_present_arrival(std::optional<std::uint64_t> arrival) {
    present_.store(arrival.value_or(kNone), std::memory_order_relaxed);
  }

  bool satisfied() const override {
    if (request_ != nullptr) {
      return request_done(*request_);
    }
    if (!tag_ || peer_ == MPI_ANY_SOURCE) {
      return false;
    }
    const StampProtocol::Hold hold(stamps_); // other threads file into the inbox
    return shadow_.inbox.find(peer_, *tag_).has_value();
  }
  bool waits_for_message() const override { return request_ == nullptr && tag_.has_value(); }

private:
  static constexpr std::uint64_t kNone = UINT64_MAX;

  void describe_wait(deadlock::ProcessState& state, bool waiting_thread) const override {
    state.activity = deadlock::Activity::BlockedAny;
    add_peers(state, shadow_, peer_);
    if (peer_ == MPI_ANY_SOURCE && tag_ && waiting_thread) {
      const StampProtocol::Hold hold(stamps_);
      state.present_arrival_ns = shadow_.inbox.earliest_candidate(*tag_);
    } else if (const std::uint64_t present = present_.load(std::memory_order_relaxed);
               present != kNone) {
      state.present_arrival_ns = present;
    }
  }

  StampProtocol& stamps_; // the process's, which files into the inbox
  const Shadow& shadow_;
  int peer_;
  std::optional<int> tag_;
  const MPI_Request* request_ = nullptr;
  std::atomic<std::uint64_t> present_{kNone};
};

// A blocking collective (or the entry of one): waits for every other member (AND), inside the
// instance (communicator id, sequence number) so that members inside it do not wait on each
// other; `entry` is the round of MembersEntered in flight.
// On an intercommunicator the members are both groups (MembersEntered waits for both); its id
// is agreed by both groups, and both count its collectives alike, so the instance is the same
// on every member. Reporting Running (at the entry) there hung a wildcard receive of a remote
// member that this rank's collective waits for: its clock never passed the decider's
// candidate. Reporting the remote group alone hung one of a local member: the remote members,
// all inside the instance, hid that this rank waited for the decider through them.
class CollectiveWait final : public BlockedCall {
public:
  CollectiveWait(WaitPlace place, std::uint64_t since_vt, const Shadow& shadow,
                 std::uint64_t sequence, const MPI_Request& entry)
      : BlockedCall(place, since_vt), shadow_(shadow), sequence_(sequence), entry_(entry) {}

  bool satisfied() const override { return request_done(entry_); }

private:
  void describe_wait(deadlock::ProcessState& state, bool) const override {
    state.activity = deadlock::Activity::BlockedAll;
    add_peers(state, shadow_, MPI_ANY_SOURCE);
    state.waits_on.insert(state.waits_on.end(), shadow_.local_others.begin(),
                          shadow_.local_others.end());
    state.collective = (shadow_.id << 32) ^ sequence_;
  }

  const Shadow& shadow_;
  std::uint64_t sequence_;
  const MPI_Request& entry_;
};

// A wait for a message on a communicator the layer does not monitor (UnshadowedCommunicators):
// only MPI knows whom it waits for, so the process answers as running, and the wait is the
// program's own time, its clock running on, as for a request the layer does not track.
class UnmonitoredWait final : public BlockedCall {
public:
  using BlockedCall::BlockedCall;

  bool keeps_clock_running() const override { return true; }

private:
  void describe_wait(deadlock::ProcessState& state, bool) const override {
    state.activity = deadlock::Activity::Running;
    state.waits_on.clear();
  }
};

} // namespace vcmon::runtime::mpi
