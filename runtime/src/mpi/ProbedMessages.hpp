// What a probe learned, so that the receive that follows it counts the probe's waiting as its
// own synchronisation delay: the last successful Probe/Iprobe of this thread (matched by
// communicator, source and tag), and every message Mprobe/Improbe took out of matching (by
// message handle: Mrecv/Imrecv need its communicator, which the handle does not reveal).
#pragma once

#include "mpi/HandleTable.hpp"
#include "mpi/Moment.hpp"
#include "mpi/ShadowCommunicators.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {

struct ProbedMessage {
  const Shadow* shadow = nullptr;
  int source = MPI_ANY_SOURCE;
  int tag = MPI_ANY_TAG;
  Moment probed;
};

class ProbedMessages {
public:
  static void remember_probe(const Shadow& shadow, const MPI_Status& status, const Moment& probed) {
    last_probe_ = {&shadow, status.MPI_SOURCE, status.MPI_TAG, probed};
  }

  // The post moment of a receive on `shadow` from `source` with `tag`: the moment of the
  // probe that found its message, else `now`.
  static Moment receive_post(const Shadow& shadow, int source, int tag, const Moment& now) {
    const ProbedMessage probe = last_probe_;
    last_probe_.shadow = nullptr;
    const bool matches = probe.shadow == &shadow &&
                         (source == MPI_ANY_SOURCE || source == probe.source) &&
                         (tag == MPI_ANY_TAG || tag == probe.tag);
    return matches ? probe.probed : now;
  }

  static void remember_matched(MPI_Message message, const Shadow& shadow, const MPI_Status& status,
                               const Moment& probed) {
    matched_.insert(message, {&shadow, status.MPI_SOURCE, status.MPI_TAG, probed});
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
  // Read by every receive: initial-exec TLS (see ControlChannel::running_vt_).
  static inline thread_local ProbedMessage last_probe_ __attribute__((tls_model("initial-exec")));
  static inline HandleTable<ProbedMessage, 1024> matched_;
};

static_assert(sizeof(MPI_Message) == sizeof(std::int32_t), "MPICH message handles are ints");

} // namespace vcmon::runtime::mpi
