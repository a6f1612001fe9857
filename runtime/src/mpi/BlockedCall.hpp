// What a blocking MPI call of this process waits for, in the terms of the deadlock module
// (deadlock::ProcessState): the state this process reports to a decider while it waits in
// WaitPolicy's loop, and the starting point of a real-deadlock check. Descriptions live on the
// waiting call's stack and are built into a state only when someone asks.
#pragma once

#include "mpi/ShadowCommunicators.hpp"

#include "vcmon/deadlock/ProcessState.hpp"
#include "vcmon/tables/Site.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>

namespace vcmon::runtime::mpi {

// Where a process waits, for the deadlock report.
struct WaitPlace {
  unsigned function = 0; // MpiFunction index; ~0u when not in a blocking call
  tables::SiteId site = tables::kNoSite;
};

class BlockedCall {
public:
  BlockedCall(WaitPlace place, std::uint64_t since_vt) : place_(place), since_vt_(since_vt) {}
  virtual ~BlockedCall() = default;

  WaitPlace place() const { return place_; }
  // Fills activity, clock_ns, waits_on (world ranks), present_arrival_ns and collective.
  void describe(deadlock::ProcessState& state) const {
    state.clock_ns = since_vt_;
    describe_wait(state);
  }

  // The call this process waits in now, if exactly one thread waits (with several, the
  // process may still send from another thread: it reports itself Running).
  static const BlockedCall* current() {
    return waiting_threads_.load(std::memory_order_acquire) == 1
               ? current_.load(std::memory_order_acquire)
               : nullptr;
  }

  // Registers `call` as what this thread waits in for the scope's lifetime.
  class Scope {
  public:
    explicit Scope(const BlockedCall& call) {
      current_.store(&call, std::memory_order_release);
      waiting_threads_.fetch_add(1, std::memory_order_acq_rel);
    }
    ~Scope() { waiting_threads_.fetch_sub(1, std::memory_order_acq_rel); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
  };

protected:
  virtual void describe_wait(deadlock::ProcessState& state) const = 0;

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
  static inline std::atomic<const BlockedCall*> current_{nullptr};
  static inline std::atomic<int> waiting_threads_{0};
};

// A receive or probe from one peer or any (OR-wait), or a send waiting for its receiver.
class PeerWait final : public BlockedCall {
public:
  PeerWait(WaitPlace place, std::uint64_t since_vt, const Shadow& shadow, int peer)
      : BlockedCall(place, since_vt), shadow_(shadow), peer_(peer) {}

  // A wildcard waiting for safety: the earliest candidate already there.
  void set_present_arrival(std::optional<std::uint64_t> arrival) { present_ = arrival; }

private:
  void describe_wait(deadlock::ProcessState& state) const override {
    state.activity = deadlock::Activity::BlockedAny;
    add_peers(state, shadow_, peer_);
    state.present_arrival_ns = present_;
  }

  const Shadow& shadow_;
  int peer_;
  std::optional<std::uint64_t> present_;
};

// A blocking collective (or the entry of one): waits for every other member (AND), inside the
// instance (communicator id, sequence number) so that members inside it do not wait on each
// other. Intercommunicators have no agreed id: they report Running, which is always safe.
class CollectiveWait final : public BlockedCall {
public:
  CollectiveWait(WaitPlace place, std::uint64_t since_vt, const Shadow& shadow,
                 std::uint64_t sequence)
      : BlockedCall(place, since_vt), shadow_(shadow), sequence_(sequence) {}

private:
  void describe_wait(deadlock::ProcessState& state) const override {
    if (shadow_.inter) {
      state.activity = deadlock::Activity::Running;
      return;
    }
    state.activity = deadlock::Activity::BlockedAll;
    add_peers(state, shadow_, MPI_ANY_SOURCE);
    state.collective = (shadow_.id << 32) ^ sequence_;
  }

  const Shadow& shadow_;
  std::uint64_t sequence_;
};

// Wait*, on requests: described in RequestsWait.cpp (it needs the request table).
class RequestsWait final : public BlockedCall {
public:
  enum class Needs { One, All };
  RequestsWait(WaitPlace place, std::uint64_t since_vt, std::span<const MPI_Request> requests,
               Needs needs)
      : BlockedCall(place, since_vt), requests_(requests), needs_(needs) {}

private:
  void describe_wait(deadlock::ProcessState& state) const override;

  std::span<const MPI_Request> requests_;
  Needs needs_;
};

} // namespace vcmon::runtime::mpi
