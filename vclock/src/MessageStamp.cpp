#include "vcmon/vclock/MessageStamp.hpp"

#include <algorithm>

namespace vcmon::vclock {

ReceiveTiming receive_timing(std::uint64_t post_vt_ns, const MessageStamp& stamp,
                             std::uint64_t transfer_ns) {
  ReceiveTiming timing{};
  timing.arrival_vt_ns = stamp.send_vt_ns + transfer_ns;
  timing.resume_vt_ns = std::max(post_vt_ns, timing.arrival_vt_ns);
  timing.sync_delay_ns = stamp.send_vt_ns > post_vt_ns ? stamp.send_vt_ns - post_vt_ns : 0;
  timing.transmission_ns = timing.resume_vt_ns - post_vt_ns - timing.sync_delay_ns;
  return timing;
}

} // namespace vcmon::vclock
