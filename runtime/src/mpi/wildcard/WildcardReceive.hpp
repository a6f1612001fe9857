// A receive or probe from MPI_ANY_SOURCE (docs/design.md, "Wildcard receives in virtual order"): it
// pulls the stamps that have arrived on the communicator's shadow, takes as candidate the first
// stamp of each source that matches its tag (later ones cannot overtake it), bounds every other
// peer by what is known of it, and lets SafeDecision pick. The chosen stamp stays in the inbox: the
// receive takes it, a probe leaves it for the receive that follows.
#pragma once

#include "mpi/control/BlockedCall.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/stamps/StampLock.hpp"
#include "mpi/wildcard/SafeDecision.hpp"

#include "core/Monitor.hpp"

#include <cstdint>
#include <optional>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) WildcardReceive {
public:
  // `control`: the process's channel, over which its decision asks (and its stamp protocol);
  // `trace`: the process's, where the decision is traced.
  WildcardReceive(Monitor& monitor, ControlChannel& control, WildcardTrace& trace,
                  const Shadow& shadow, int tag, WaitPlace place, std::uint64_t post_vt);

  // One attempt: the stamp to take now (a copy: it stays in the inbox), or nullopt. `horizon`,
  // `may_ask`: see SafeDecision::decide. With StampLock::Wait::No (a poll) it gives up, nullopt,
  // when another thread holds the stamps' lock. The lock is held only while the candidates are
  // read, never over the decision: a decision may ask other ranks for their states, and a thread
  // that is asking files the stamps its answers carry under that lock.
  std::optional<PendingStamp> attempt(std::optional<std::uint64_t> horizon, bool may_ask = true,
                                      StampLock::Wait wait = StampLock::Wait::Yes);
  // Whether a candidate is there (the decider then waits for safety, not for a message).
  bool has_candidate() const { return first_candidate_rt_ != 0; }

  // What this receive waits in, for the wait loop and state requests.
  const PeerWait& wait() const { return wait_; }

  // Counts the decision (and its safety wait) and traces it; `stamp` is the one taken.
  void taken(unsigned function, const PendingStamp& stamp);

private:
  Monitor& monitor_;
  StampProtocol& stamps_;
  const Shadow& shadow_;
  int tag_;
  PeerWait wait_;
  SafeDecision decision_;
  std::uint64_t first_candidate_rt_ = 0;
};

} // namespace vcmon::runtime::mpi
