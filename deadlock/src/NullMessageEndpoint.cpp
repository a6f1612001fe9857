#include "vcmon/deadlock/NullMessageEndpoint.hpp"

#include <algorithm>
#include <utility>

namespace vcmon::deadlock {

NullMessageEndpoint::NullMessageEndpoint(ProcessState own,
                                         std::map<Rank, std::uint64_t> channel_bounds,
                                         std::uint64_t lookahead_ns)
    : own_(std::move(own)), channel_bounds_(std::move(channel_bounds)),
      lookahead_ns_(lookahead_ns) {}

void NullMessageEndpoint::receive_null(Rank from, std::uint64_t bound) {
  std::uint64_t& channel = channel_bounds_[from];
  channel = std::max(channel, bound);
}

std::uint64_t NullMessageEndpoint::channel_bound(Rank from) const {
  const auto it = channel_bounds_.find(from);
  return it == channel_bounds_.end() ? 0 : it->second;
}

std::uint64_t NullMessageEndpoint::safe_until() const {
  std::uint64_t resume = 0;
  if (own_.activity == Activity::BlockedAny) {
    resume = own_.present_arrival_ns.value_or(kNever);
    for (Rank rank : own_.waits_on) {
      resume = std::min(resume, channel_bound(rank));
    }
  } else {
    for (Rank rank : own_.waits_on) {
      resume = std::max(resume, channel_bound(rank));
    }
  }
  return std::max(own_.clock_ns, resume);
}

std::uint64_t NullMessageEndpoint::announcement() const {
  const std::uint64_t safe = safe_until();
  return safe > kNever - lookahead_ns_ ? kNever : safe + lookahead_ns_;
}

} // namespace vcmon::deadlock
