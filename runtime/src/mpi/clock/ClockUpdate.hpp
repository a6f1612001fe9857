// How an MPI call moves the virtual clock once it completed communication (docs/pmpi.md, "Virtual
// time"). A call that waited for a partner (a message's sender, a synchronous send's receiver, the
// last participant of a collective) ends at
//     max(VT_call, VT_partner) + (real time from when both were there to the call's return)
// in the common time base: waiting for the partner counts as synchronisation, the rest as
// transfer, and real waiting caused by other processes' intrusion disappears because the
// intrusion is re-derived as RT − VT. A call completing several operations (Waitall) ends at
// the latest of them, so the clock is continued once, after all.
#pragma once

#include "vcmon/vclock/Moment.hpp"

#include <algorithm>
#include <cstdint>

namespace vcmon::runtime::mpi {

class CompletionLedger;

// Real time the operation needed once both sides were there (transmission).
inline std::uint64_t transfer_ns(const vclock::Moment& call, const vclock::Moment& partner,
                                 std::uint64_t end_rt) {
  return vclock::elapsed(std::max(call.rt, partner.rt), end_rt);
}

inline std::uint64_t completion_vt(const vclock::Moment& call, const vclock::Moment& partner,
                                   std::uint64_t end_rt) {
  return std::max(call.vt, partner.vt) + transfer_ns(call, partner, end_rt);
}

class ClockUpdate {
public:
  void include(std::uint64_t completion_vt) {
    latest_ = std::max(latest_, completion_vt);
    any_ = true;
  }
  // Continues the clock at the latest completion, at the reading `now_ns` of the clock's
  // source; a call that completed nothing with a partner leaves it alone.
  void apply(vclock::VirtualClock& clock, std::uint64_t now_ns) const {
    if (any_) {
      clock.continue_from(latest_, now_ns);
    }
  }
  bool any() const { return any_; }
  std::uint64_t latest() const { return latest_; }

  // Inside a completion call (CompletionCharge): the requests it completed are charged to it,
  // the calls that posted them keep their own time, count and bytes.
  CompletionLedger* ledger = nullptr;

private:
  std::uint64_t latest_ = 0;
  bool any_ = false;
};

} // namespace vcmon::runtime::mpi
