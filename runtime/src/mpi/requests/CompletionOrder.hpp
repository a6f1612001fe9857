// Which request Waitany, Testany, Waitsome and Testsome report first (docs/design.md, "Wildcard
// receives in virtual order"): among receive requests whose messages' stamps have arrived, the
// earliest virtual arrival once safe (SafeDecision), not the one MPI happened to complete first. It
// applies when every active request of the call is a tracked receive from a specific source on one
// monitored communicator; other mixes complete in MPI's order (docs/deadlock.md). Waitsome and
// Testsome report one request per call, which MPI allows.
#pragma once

#include "core/Monitor.hpp"
#include "core/MpiFunctionTable.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/requests/PendingWork.hpp"
#include "mpi/requests/RequestTable.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "mpi/wildcard/WildcardTrace.hpp"

#include <mpi.h>

#include <optional>
#include <span>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) CompletionOrder {
public:
  // nullopt when the rule does not apply (the caller lets PMPI complete). Otherwise the call's
  // return code, with *index (MPI_UNDEFINED when a Test-style call has nothing safe yet: then
  // *flag is 0) and *status set, the chosen request completed and its receipt recorded.
  // `flag`: nullptr for Waitany/Waitsome (block until one is chosen). `table`: the process's
  // tracked requests, which `requests` are looked up in; `pending`: the process's, with its
  // stamp protocol; `control`: the process's channel, served while it waits or decides;
  // `trace`: the process's, where each decision is traced.
  static std::optional<int> complete_first(Monitor& monitor, PendingWork& pending,
                                           RequestTable& table, ControlChannel& control,
                                           WildcardTrace& trace, MpiFunction function,
                                           std::span<MPI_Request> requests, int* index, int* flag,
                                           MPI_Status* status);
};

} // namespace vcmon::runtime::mpi
