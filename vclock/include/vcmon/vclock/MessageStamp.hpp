// The stamp every message carries (docs/design.md, "Stamps and the virtual time of a message"), and
// the virtual-time rule of a receive.
#pragma once

#include <cstdint>

namespace vcmon::vclock {

struct MessageStamp {
  std::uint64_t send_vt_ns = 0; // sender's virtual time when the send was posted
  std::uint64_t send_rt_ns = 0; // sender's real time, in the common time base (offsets applied)
  std::uint64_t bytes = 0;
  std::uint32_t flags = 0; // e.g. synchronous send: the receiver answers with its post time

  bool operator==(const MessageStamp&) const = default;
};

// The receive rule (docs/runtime.md, "Virtual time of a receive"). With P = post_vt_ns,
// S = stamp.send_vt_ns and T = transfer_ns:
//   A          = S + T                 the message is complete at the receiver
//   resume     = max(P, A)             the receiver's clock continues from here
//   sync delay = max(0, S − P)         waiting for the sender to send
//   transmission = resume − P − sync   the part of the transfer the receiver waited for
// so sync delay + transmission = resume − P: the receive's virtual duration, counted once.
struct ReceiveTiming {
  std::uint64_t arrival_vt_ns;   // A = S + T
  std::uint64_t sync_delay_ns;   // max(0, S − P)
  std::uint64_t transmission_ns; // min(T, max(0, A − P))
  std::uint64_t resume_vt_ns;    // max(P, A): where the receiver's clock continues
};

// The receiver posted at virtual time `post_vt_ns`; the message needed `transfer_ns` to move.
ReceiveTiming receive_timing(std::uint64_t post_vt_ns, const MessageStamp& stamp,
                             std::uint64_t transfer_ns);

} // namespace vcmon::vclock
