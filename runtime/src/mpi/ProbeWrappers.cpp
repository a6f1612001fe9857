// MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe: matching is PMPI's own; the layer notes
// when the message was found so that the receive that follows charges the probe's waiting
// to synchronisation, and which communicator an Mprobe'd message belongs to.
#include "mpi/Layer.hpp"
#include "mpi/LayerWork.hpp"
#include "mpi/Moment.hpp"
#include "mpi/ProbedMessages.hpp"
#include "mpi/ShadowCommunicators.hpp"
#include "mpi/WaitPolicy.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {
namespace {

// `pmpi(MPI_Status*, MPI_Message*)` returns its code; `found` tells whether it matched.
template <typename Call>
int probe(int source, MPI_Comm comm, MPI_Status* status, MPI_Message* message, const int* found,
          bool blocking, Call&& pmpi) {
  Monitor* monitor = Layer::monitor();
  const Shadow* shadow = monitor != nullptr ? ShadowCommunicators::find(comm) : nullptr;
  if (shadow == nullptr || source == MPI_PROC_NULL) {
    return pmpi(status);
  }
  const Moment probed = Moment::now(monitor->clock());
  MPI_Status local;
  MPI_Status* const st = status == MPI_STATUS_IGNORE ? &local : status;
  const int rc = blocking ? WaitPolicy::block([&] { return pmpi(st); }) : pmpi(st);
  if (rc == MPI_SUCCESS && (found == nullptr || *found)) {
    LayerWork work(*monitor);
    if (message == nullptr) {
      ProbedMessages::remember_probe(*shadow, *st, probed);
    } else if (*message != MPI_MESSAGE_NO_PROC) {
      ProbedMessages::remember_matched(*message, *shadow, *st, probed);
    }
  }
  return rc;
}

} // namespace
} // namespace vcmon::runtime::mpi

using vcmon::runtime::mpi::probe;

extern "C" int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return probe(source, comm, status, nullptr, nullptr, true,
               [&](MPI_Status* st) { return PMPI_Probe(source, tag, comm, st); });
}

extern "C" int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return probe(source, comm, status, nullptr, flag, false,
               [&](MPI_Status* st) { return PMPI_Iprobe(source, tag, comm, flag, st); });
}

extern "C" int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message,
                          MPI_Status* status) {
  return probe(source, comm, status, message, nullptr, true,
               [&](MPI_Status* st) { return PMPI_Mprobe(source, tag, comm, message, st); });
}

extern "C" int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                           MPI_Status* status) {
  return probe(source, comm, status, message, flag, false,
               [&](MPI_Status* st) { return PMPI_Improbe(source, tag, comm, flag, message, st); });
}
