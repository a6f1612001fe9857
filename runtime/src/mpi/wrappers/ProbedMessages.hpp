// The messages Mprobe/Improbe took out of matching, by message handle: Mrecv/Imrecv need their
// communicator, which the handle does not reveal, and their stamp, taken from the inbox as the
// probe matched (another thread's wildcard decision would otherwise choose it again, and probe
// a source that has nothing more to send). One instance per process, in its LayerContext
// (preallocated, O(1), no lock: HandleTable).
#pragma once

#include "mpi/layer/HandleTable.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {

struct ProbedMessage {
  const Shadow* shadow = nullptr;
  PendingStamp stamp; // its source and tag, and its stamp
};

class ProbedMessages {
public:
  void remember_matched(MPI_Message message, const Shadow& shadow, const PendingStamp& stamp) {
    matched_.insert(message, {&shadow, stamp});
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
