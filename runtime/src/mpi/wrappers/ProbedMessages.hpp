// The messages Mprobe/Improbe took out of matching, by message handle: Mrecv/Imrecv need their
// communicator, which the handle does not reveal. One instance per process, in its LayerContext
// (preallocated, O(1), no lock: HandleTable).
#pragma once

#include "mpi/layer/HandleTable.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {

struct ProbedMessage {
  const Shadow* shadow = nullptr;
  int source = MPI_ANY_SOURCE;
  int tag = MPI_ANY_TAG;
};

class ProbedMessages {
public:
  void remember_matched(MPI_Message message, const Shadow& shadow, const MPI_Status& status) {
    matched_.insert(message, {&shadow, status.MPI_SOURCE, status.MPI_TAG});
  }
  // The probe that matched `message`, removed; nullopt-like empty shadow when unknown.
  ProbedMessage take_matched(MPI_Message message) {
    ProbedMessage* entry = matched_.find(message);
    if (entry == nullptr) {
      return {};
    }
    const ProbedMessage probe = *entry;
    matched_.erase(message);
    return probe;
  }

  // Whether a message Mprobe took on `shadow` still waits for its Mrecv.
  bool refers_to(const Shadow& shadow) const {
    return matched_.any_of([&](const ProbedMessage& probe) { return probe.shadow == &shadow; });
  }

private:
  HandleTable<ProbedMessage, 1024> matched_;
};

static_assert(sizeof(MPI_Message) == sizeof(std::int32_t), "MPICH message handles are ints");

} // namespace vcmon::runtime::mpi
