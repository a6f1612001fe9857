#include "mpi/control/NullAnnouncer.hpp"

#include "vcmon/deadlock/NullMessageEndpoint.hpp"

#include <map>

namespace vcmon::runtime::mpi {

bool NullAnnouncer::announce(Monitor& monitor, ControlChannel& control, const BlockedCall& call,
                             std::uint64_t now_rt) {
  if (now_rt < next_rt_) {
    return false;
  }
  next_rt_ = now_rt + 20'000; // a round: let the others' announcements arrive in between
  deadlock::ProcessState own;
  own.rank = monitor.world_rank();
  call.describe(own, true);
  const SenderBounds& bounds = control.stamps().bounds();
  std::map<deadlock::Rank, std::uint64_t> channels;
  const std::uint64_t collective = own.collective.value_or(0);
  for (const int rank : own.waits_on) {
    // A member already inside the same collective instance has arrived: this process waits
    // for its entry, which is past, not for its next send, which comes after the collective
    // and so after this process. Counting that bound made members in one collective promise
    // each other ever later times, a lookahead per round.
    const bool inside = collective != 0 && control.null_collective_of(rank) == collective;
    channels[rank] = inside ? 0 : bounds.of(rank);
  }
  const deadlock::NullMessageEndpoint endpoint(own, channels, monitor.config().lookahead_ns);
  const std::uint64_t bound = endpoint.announcement();
  if (bound <= announced_) {
    return false;
  }
  announced_ = bound;
  control.announce_null(monitor, bound, collective);
  return true;
}

} // namespace vcmon::runtime::mpi
