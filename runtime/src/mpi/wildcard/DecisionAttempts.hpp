// The attempts at one nondeterministic event's decision, apart from MPI (docs/deadlock.md, "While
// the rule says Wait"): each attempt applies the rule to the bounds at hand; a candidate cycle
// breaking permitted once stays permitted for later attempts (a polling Iprobe loop); a Test-style
// call reports nothing beyond its horizon; and other ranks are asked at once, then after a
// back-off from 50 us doubling to 10 ms, or, with null messages, this rank's bound is announced.
// SafeDecision reaches MPI for it through Help; tests give it their own.
#pragma once

#include "vcmon/vclock/WildcardOrder.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace vcmon::runtime::mpi {

class DecisionAttempts {
public:
  static constexpr std::uint64_t kFirstBackoffNs = 50'000;
  static constexpr std::uint64_t kLastBackoffNs = 10'000'000;

  // What an attempt needs beyond the bounds at hand.
  class Help {
  public:
    virtual ~Help() = default;
    virtual std::uint64_t now_rt() = 0;
    // VCMON_DEADLOCK=nullmsg: announce this rank's bound instead of asking.
    virtual bool null_messages() = 0;
    virtual void announce_bound(std::uint64_t now_rt) = 0;
    // Asks the ranks the decision waits for (CycleBreaker): the candidate it permits, if any.
    virtual std::optional<vclock::WildcardCandidate>
    break_cycle(std::span<const vclock::WildcardCandidate> candidates) = 0;
  };

  // The candidate to take now, or nullopt. `horizon`: a Test-style call reports only arrivals up
  // to it. `may_ask`: false where the caller must not wait for answers (outside any wait).
  std::optional<vclock::WildcardCandidate>
  attempt(std::span<const vclock::WildcardCandidate> candidates,
          std::span<const vclock::SenderBound> senders, std::optional<std::uint64_t> horizon,
          bool may_ask, Help& help);

private:
  std::optional<vclock::WildcardCandidate> permitted_; // what cycle breaking allowed
  std::uint64_t next_ask_rt_ = 0;
  std::uint64_t backoff_ns_ = kFirstBackoffNs;
};

} // namespace vcmon::runtime::mpi
