#include "mpi/wildcard/WildcardReceive.hpp"

#include "mpi/stamps/ReceivedSoFar.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <vector>

namespace vcmon::runtime::mpi {
namespace {

// Scratch of this thread's attempts: no allocation once grown. A candidate's slot indexes
// `stamps`. One variable in the initial-exec model: a polling loop attempts at every call, and
// five dynamic TLS lookups were a tenth of an attempt's cost.
struct AttemptScratch {
  std::vector<vclock::WildcardCandidate> candidates;
  std::vector<PendingStamp> stamps;
  std::vector<vclock::SenderBound> senders;
  std::vector<char> seen_source;
  ReceivedSoFar sight;
};
thread_local AttemptScratch attempt_scratch __attribute__((tls_model("initial-exec")));

} // namespace

WildcardReceive::WildcardReceive(Monitor& monitor, ControlChannel& control, WildcardTrace& trace,
                                 const Shadow& shadow, int tag, WaitPlace place,
                                 std::uint64_t post_vt)
    : monitor_(monitor), stamps_(control.stamps()), shadow_(shadow), tag_(tag),
      wait_(stamps_, place, post_vt, shadow, MPI_ANY_SOURCE, tag),
      decision_(monitor, control, trace, shadow) {}

std::optional<PendingStamp> WildcardReceive::attempt(std::optional<std::uint64_t> horizon,
                                                     bool may_ask, StampLock::Wait wait) {
  auto& [candidates, stamps, senders, seen_source, sight] = attempt_scratch;
  candidates.clear();
  stamps.clear();
  senders.clear();
  seen_source.assign(static_cast<std::size_t>(shadow_.peers), 0);
  {
    const StampProtocol::Hold hold(stamps_, wait);
    if (hold.missed()) {
      return std::nullopt;
    }
    stamps_.drain();
    shadow_.inbox.for_each_candidate(tag_, [&](const PendingStamp& entry) {
      seen_source[static_cast<std::size_t>(entry.source)] = 1;
      candidates.push_back(
          {shadow_.world_rank_of(entry.source), entry.stamp.send_vt_ns, stamps.size()});
      stamps.push_back(entry);
    });
    // Bounds and counts as the candidates were read: a stamp filed after them must not speak
    // for a sender whose earlier message is not among them.
    sight.read(stamps_.counts(), stamps_.bounds(), monitor_.world_size());
  }
  for (int peer = 0; peer < shadow_.peers; ++peer) {
    if (peer != shadow_.self && !seen_source[static_cast<std::size_t>(peer)]) {
      const int rank = shadow_.world_rank_of(peer);
      senders.push_back({rank, sight.bound_of(rank)});
    }
  }
  if (candidates.empty()) {
    wait_.set_present_arrival(std::nullopt);
    return std::nullopt;
  }
  if (first_candidate_rt_ == 0) {
    first_candidate_rt_ = vclock::Moment::now(monitor_.clock()).rt;
  }
  std::uint64_t earliest = candidates.front().arrival_ns;
  for (const auto& c : candidates) {
    earliest = std::min(earliest, c.arrival_ns);
  }
  wait_.set_present_arrival(earliest);
  const auto chosen = decision_.decide(candidates, senders, sight, wait_, horizon, may_ask);
  if (!chosen) {
    return std::nullopt;
  }
  return stamps[chosen->slot];
}

void WildcardReceive::taken(unsigned function, const PendingStamp& stamp) {
  decision_.record(function, stamp, first_candidate_rt_,
                   first_candidate_rt_ != 0 ? vclock::Moment::now(monitor_.clock()).rt : 0);
}

} // namespace vcmon::runtime::mpi
