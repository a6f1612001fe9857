#include "mpi/stamps/StampMail.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

StampMail::StampMail(int world_size, std::span<const PeerRings> rings, StampMessages& messages)
    : inbound_(static_cast<std::size_t>(world_size)),
      outbound_(static_cast<std::size_t>(world_size)), messages_(messages) {
  for (const PeerRings& ring : rings) {
    const auto peer = static_cast<std::size_t>(ring.peer);
    outbound_[peer].ring = ring.to_peer;
    inbound_[peer].ring = ring.from_peer;
    ring_sources_.push_back(ring.peer);
  }
  all_ringed_ = std::all_of(inbound_.begin(), inbound_.end(),
                            [](const Inbound& from) { return from.ring.valid(); });
}

void StampMail::post(int dest, StampMessage message) {
  Outbound& to = outbound_[static_cast<std::size_t>(dest)];
  message.sequence = ++to.sequence;
  if (to.ring.valid()) {
    if (to.ring.push(message)) {
      return;
    }
    to.ring.note_diverted();
  }
  messages_.send(dest, message);
}

} // namespace vcmon::runtime::mpi
