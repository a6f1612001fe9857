// The messages Mprobe/Improbe took out of matching, by message handle: Mrecv/Imrecv need their
// communicator, which the handle does not reveal.
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
  static void remember_matched(MPI_Message message, const Shadow& shadow,
                               const MPI_Status& status) {
    matched_.insert(message, {&shadow, status.MPI_SOURCE, status.MPI_TAG});
  }
  // The probe that matched `message`, removed; nullopt-like empty shadow when unknown.
  static ProbedMessage take_matched(MPI_Message message) {
    ProbedMessage* entry = matched_.find(message);
    if (entry == nullptr) {
      return {};
    }
    const ProbedMessage probe = *entry;
    matched_.erase(message);
    return probe;
  }

  // Whether a message Mprobe took on `shadow` still waits for its Mrecv.
  static bool refers_to(const Shadow& shadow) {
    return matched_.any_of([&](const ProbedMessage& probe) { return probe.shadow == &shadow; });
  }

private:
  static inline HandleTable<ProbedMessage, 1024> matched_;
};

static_assert(sizeof(MPI_Message) == sizeof(std::int32_t), "MPICH message handles are ints");

} // namespace vcmon::runtime::mpi
