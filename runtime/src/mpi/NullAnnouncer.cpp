#include "mpi/NullAnnouncer.hpp"

#include "mpi/ControlChannel.hpp"
#include "mpi/SenderBounds.hpp"

#include "vcmon/deadlock/NullMessageEndpoint.hpp"

#include <map>

namespace vcmon::runtime::mpi {

bool NullAnnouncer::announce(Monitor& monitor, const BlockedCall& call, std::uint64_t now_rt) {
  if (now_rt < next_rt_) {
    return false;
  }
  next_rt_ = now_rt + 20'000; // a round: let the others' announcements arrive in between
  deadlock::ProcessState own;
  own.rank = monitor.world_rank();
  call.describe(own);
  std::map<deadlock::Rank, std::uint64_t> channels;
  for (const int rank : own.waits_on) {
    channels[rank] = SenderBounds::of(rank);
  }
  const deadlock::NullMessageEndpoint endpoint(own, channels, monitor.config().lookahead_ns);
  const std::uint64_t bound = endpoint.announcement();
  if (bound <= announced_) {
    return false;
  }
  announced_ = bound;
  ControlChannel::announce_null(monitor, bound);
  return true;
}

} // namespace vcmon::runtime::mpi
