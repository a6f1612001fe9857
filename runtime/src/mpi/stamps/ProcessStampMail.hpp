// The layer's StampMail over this process's node and private world (docs/pmpi.md, "Stamp
// transport"): its rings in the shared-memory segments of this node's ranks, which it maps and
// keeps, its messages on the private world. Made at MPI_Init, destroyed at MPI_Finalize, by the
// process's LayerContext.
#pragma once

#include "mpi/layer/NodeSegment.hpp"
#include "mpi/stamps/StampMail.hpp"
#include "mpi/stamps/StampMessages.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace vcmon::runtime::mpi {

class ProcessStampMail {
public:
  // Collective over MPI_COMM_WORLD: rings of `ring_slots` slots (rounded up to a power of two)
  // from every rank of this node to every other (0: every stamp travels as a message).
  explicit ProcessStampMail(std::uint32_t ring_slots);
  ~ProcessStampMail();
  ProcessStampMail(const ProcessStampMail&) = delete;
  ProcessStampMail& operator=(const ProcessStampMail&) = delete;

  StampMail& mail() { return *mail_; }

private:
  // Stamps as MPI messages on the private world, apart from its other traffic by tag.
  class PrivateWorldMessages final : public StampMessages {
  public:
    void send(int dest, const StampMessage& message) override;
    bool receive(int& source, StampMessage& message) override;
  };

  PrivateWorldMessages messages_;
  std::vector<NodeSegment> segments_; // this node's ranks', mapped (rings on)
  std::optional<StampMail> mail_;
};

} // namespace vcmon::runtime::mpi
