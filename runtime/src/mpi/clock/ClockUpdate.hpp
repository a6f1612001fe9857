// How an MPI call moves the virtual clock once it completed communication (docs/pmpi.md, "Virtual
// time"). A call that waited for a partner (a message's sender, a synchronous send's receiver, the
// last participant of a collective) ends at
//     max(VT_call, VT_partner) + (real time from when both were there to the call's return)
// in the common time base: waiting for the partner counts as synchronisation, the rest as
// transfer, and real waiting caused by other processes' intrusion disappears because the
// intrusion is re-derived as RT − VT. A call completing several operations (Waitall) ends at
// the latest of them, so the clock is continued once, after all.
#pragma once

#include "vcmon/vclock/MessageStamp.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <algorithm>
#include <cstdint>

namespace vcmon::runtime::mpi {

class CompletionLedger;

// A partner's moment (sender, reply, latest member) as this rank can have seen it by `end_rt`:
// the partner was there before this call learnt of it, so with right clock offsets this changes
// nothing. But offsets are estimates (ClockOffset: a loaded host's round trips are long), and one
// that puts the partner later than this rank's end would end the call where its clock cannot go
// (VT never passes RT): the call's record would then exceed the loop or procedure around it.
inline vclock::Moment seen_by(const vclock::Moment& partner, std::uint64_t end_rt) {
  return {std::min(partner.vt, end_rt), std::min(partner.rt, end_rt)};
}
inline vclock::MessageStamp seen_by(vclock::MessageStamp stamp, std::uint64_t end_rt) {
  const vclock::Moment sender = seen_by(vclock::Moment{stamp.send_vt_ns, stamp.send_rt_ns}, end_rt);
  stamp.send_vt_ns = sender.vt;
  stamp.send_rt_ns = sender.rt;
  return stamp;
}

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
