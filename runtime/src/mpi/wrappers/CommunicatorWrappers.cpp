// Communicator constructors give the new communicator its shadow; MPI_Comm_free and
// MPI_Comm_disconnect free it with the user's. Fresh constructors (split, create, topologies,
// intercommunicators) duplicate the new communicator itself, which carries no user
// attributes yet; the dup family duplicates the parent's shadow instead, so that the user's
// attribute copy callbacks run exactly as often as without the monitor.
// MPI_Comm_idup's communicator exists only at completion, and making a shadow then would be a
// collective inside Wait/Test: it stays unmonitored on all its members, consistently, as those
// from MPI_Comm_spawn or MPI_Comm_connect do. But every member runs the layer, so its blocking
// collectives, and those of its duplicates, are entered polled (UnshadowedCommunicators).
#include "core/MpiFunctionTable.hpp"
#include "mpi/clock/CallTime.hpp"
#include "mpi/control/MembersEntered.hpp"
#include "mpi/control/WaitPolicy.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/layer/UnpolledCall.hpp"
#include "mpi/requests/DeferredReceives.hpp"
#include "mpi/requests/LayerWork.hpp"
#include "mpi/requests/RequestTable.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "mpi/wrappers/PolledRequest.hpp"
#include "mpi/wrappers/ProbedMessages.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {
namespace {

// A constructor collective over `parent` first waits, polled, until every member has entered
// it (a nonblocking barrier on the parent's shadow): a member blocked inside PMPI could not
// answer the control channel, and a wildcard decider waiting for its answer would never join.
void enter_collectively(MpiFunction function, MPI_Comm parent) {
  Monitor* monitor = Layer::monitor();
  LayerContext* const context = monitor != nullptr ? &LayerContext::process() : nullptr;
  const Shadow* shadow = context != nullptr ? context->stamps.shadows().find(parent) : nullptr;
  if (shadow == nullptr) {
    if (context != nullptr && context->unshadowed.contains(parent)) {
      enter_unshadowed(*monitor, *context, parent);
    }
    return;
  }
  MPI_Request barrier = MPI_REQUEST_NULL;
  PMPI_Ibarrier(shadow->duplicate, &barrier);
  MembersEntered entered(*shadow, barrier);
  // A deadlock report names the program's call at its statement, not this barrier under it.
  const tables::SiteId site = monitor->comm_site(index_of(function));
  const CollectiveWait wait({index_of(function), site}, vclock::Moment::now(monitor->clock()).vt,
                            *shadow, shadow->collectives_entered++, entered.request());
  WaitPolicy::wait_until(*monitor, context->control, wait, [&] { return entered.poll(); });
}

// When an unpolled call (UnpolledCall) is entered; nothing reads it unless monitoring.
std::uint64_t entry_rt(Monitor* monitor) {
  return monitor != nullptr ? vclock::Moment::now(monitor->clock()).rt : 0;
}

// Every wrapper here: timed as `function`, entered collectively over `parent` (MPI_COMM_NULL:
// none the layer waits on), then `pmpi()`, which is collective and not polled. When it
// succeeds while monitoring, `update(monitor, context)` brings the shadows up to date.
template <typename Call, typename Update>
int communicator_call(MpiFunction function, MPI_Comm parent, Call&& pmpi, Update&& update) {
  Monitor* monitor = Layer::monitor();
  const CallTime time(monitor, function);
  enter_collectively(function, parent);
  const UnpolledCall inside(entry_rt(monitor));
  const int rc = pmpi();
  if (rc == MPI_SUCCESS && monitor != nullptr) {
    update(*monitor, LayerContext::process());
  }
  return rc;
}

// `pmpi()` creates *newcomm; `parent`: the communicator it is collective over, if any.
template <typename Call>
int fresh(MpiFunction function, MPI_Comm parent, MPI_Comm* newcomm, Call&& pmpi) {
  return communicator_call(function, parent, pmpi, [&](Monitor& monitor, LayerContext& context) {
    LayerWork work(monitor, context.pending);
    context.stamps.shadows().attach(*newcomm, *newcomm);
  });
}

template <typename Call>
int duplicate(MpiFunction function, MPI_Comm comm, MPI_Comm* newcomm, Call&& pmpi) {
  return communicator_call(function, comm, pmpi, [&](Monitor& monitor, LayerContext& context) {
    LayerWork work(monitor, context.pending);
    if (const Shadow* parent = context.stamps.shadows().find(comm)) {
      context.stamps.shadows().attach(*newcomm, parent->duplicate);
    } else if (context.unshadowed.contains(comm)) {
      context.unshadowed.add(*newcomm);
    }
  });
}

// MPI_Comm_idup and MPI_Comm_idup_with_info: `pmpi()` starts duplicating `comm`, nonblocking.
// The new communicator is unshadowed when every member of `comm` runs the layer: `comm` is an
// intracommunicator the layer monitors, or itself unshadowed. (An intercommunicator's idup
// stays as before: its entry would need a second round, as MembersEntered's.)
template <typename Call> int start_duplicate(MPI_Comm comm, MPI_Comm* newcomm, Call&& pmpi) {
  const int rc = pmpi();
  Monitor* monitor = Layer::monitor();
  if (rc != MPI_SUCCESS || monitor == nullptr) {
    return rc;
  }
  LayerContext& context = LayerContext::process();
  LayerWork work(*monitor, context.pending);
  const Shadow* parent = context.stamps.shadows().find(comm);
  if ((parent != nullptr && !parent->inter) || context.unshadowed.contains(comm)) {
    context.unshadowed.add(*newcomm);
  }
  return rc;
}

// `pmpi()` frees *comm; its shadow retires, and lives on while a request or message uses it.
// A wildcard receive still undecided there is first posted from MPI_ANY_SOURCE (MPI's order
// takes it): the freed handle can post nothing later, and its decision posted on it aborted
// the program with "Invalid communicator".
template <typename Call> int release(MpiFunction function, MPI_Comm* comm, Call&& pmpi) {
  const MPI_Comm handle = *comm;
  if (Layer::monitor() != nullptr) {
    LayerContext& context = LayerContext::process();
    if (const Shadow* shadow = context.stamps.shadows().find(handle)) {
      context.pending.deferred.before_matching(*shadow);
    }
  }
  return communicator_call(function, MPI_COMM_NULL, pmpi,
                           [&](Monitor& monitor, LayerContext& context) {
                             LayerWork work(monitor, context.pending);
                             context.unshadowed.remove(handle);
                             context.stamps.shadows().release(handle, [&](const Shadow& shadow) {
                               return context.requests.any_of([&](const TrackedRequest& request) {
                                 return request.shadow == &shadow;
                               }) || context.probed.refers_to(shadow) ||
                                      context.pending.deferred.refers_to(shadow);
                             });
                           });
}

} // namespace
} // namespace vcmon::runtime::mpi

using namespace vcmon::runtime;
using namespace vcmon::runtime::mpi;

extern "C" int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return duplicate(MpiFunction::Comm_dup, comm, newcomm,
                   [&] { return PMPI_Comm_dup(comm, newcomm); });
}

extern "C" int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  return duplicate(MpiFunction::Comm_dup_with_info, comm, newcomm,
                   [&] { return PMPI_Comm_dup_with_info(comm, info, newcomm); });
}

extern "C" int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  return start_duplicate(comm, newcomm, [&] { return PMPI_Comm_idup(comm, newcomm, request); });
}

extern "C" int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm,
                                       MPI_Request* request) {
  return start_duplicate(comm, newcomm,
                         [&] { return PMPI_Comm_idup_with_info(comm, info, newcomm, request); });
}

extern "C" int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return fresh(MpiFunction::Comm_split, comm, newcomm,
               [&] { return PMPI_Comm_split(comm, color, key, newcomm); });
}

extern "C" int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                                   MPI_Comm* newcomm) {
  return fresh(MpiFunction::Comm_split_type, comm, newcomm,
               [&] { return PMPI_Comm_split_type(comm, split_type, key, info, newcomm); });
}

extern "C" int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return fresh(MpiFunction::Comm_create, comm, newcomm,
               [&] { return PMPI_Comm_create(comm, group, newcomm); });
}

extern "C" int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  return fresh(MpiFunction::Comm_create_group, MPI_COMM_NULL, newcomm,
               [&] { return PMPI_Comm_create_group(comm, group, tag, newcomm); });
}

extern "C" int MPI_Comm_create_from_group(MPI_Group group, const char* stringtag, MPI_Info info,
                                          MPI_Errhandler errhandler, MPI_Comm* newcomm) {
  return fresh(MpiFunction::Comm_create_from_group, MPI_COMM_NULL, newcomm, [&] {
    return PMPI_Comm_create_from_group(group, stringtag, info, errhandler, newcomm);
  });
}

extern "C" int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                    int remote_leader, int tag, MPI_Comm* newintercomm) {
  return fresh(MpiFunction::Intercomm_create, local_comm, newintercomm, [&] {
    return PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag,
                                 newintercomm);
  });
}

extern "C" int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                                MPI_Group remote_group, int remote_leader,
                                                const char* stringtag, MPI_Info info,
                                                MPI_Errhandler errhandler, MPI_Comm* newintercomm) {
  return fresh(MpiFunction::Intercomm_create_from_groups, MPI_COMM_NULL, newintercomm, [&] {
    return PMPI_Intercomm_create_from_groups(local_group, local_leader, remote_group, remote_leader,
                                             stringtag, info, errhandler, newintercomm);
  });
}

extern "C" int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  return fresh(MpiFunction::Intercomm_merge, intercomm, newintracomm,
               [&] { return PMPI_Intercomm_merge(intercomm, high, newintracomm); });
}

extern "C" int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                               int reorder, MPI_Comm* comm_cart) {
  return fresh(MpiFunction::Cart_create, comm_old, comm_cart, [&] {
    return PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
  });
}

extern "C" int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  return fresh(MpiFunction::Cart_sub, comm, newcomm,
               [&] { return PMPI_Cart_sub(comm, remain_dims, newcomm); });
}

extern "C" int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int indx[], const int edges[],
                                int reorder, MPI_Comm* comm_graph) {
  return fresh(MpiFunction::Graph_create, comm_old, comm_graph, [&] {
    return PMPI_Graph_create(comm_old, nnodes, indx, edges, reorder, comm_graph);
  });
}

extern "C" int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
                                     const int degrees[], const int destinations[],
                                     const int weights[], MPI_Info info, int reorder,
                                     MPI_Comm* comm_dist_graph) {
  return fresh(MpiFunction::Dist_graph_create, comm_old, comm_dist_graph, [&] {
    return PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info,
                                  reorder, comm_dist_graph);
  });
}

extern "C" int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                              const int sourceweights[], int outdegree,
                                              const int destinations[], const int destweights[],
                                              MPI_Info info, int reorder,
                                              MPI_Comm* comm_dist_graph) {
  return fresh(MpiFunction::Dist_graph_create_adjacent, comm_old, comm_dist_graph, [&] {
    return PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree,
                                           destinations, destweights, info, reorder,
                                           comm_dist_graph);
  });
}

extern "C" int MPI_Comm_free(MPI_Comm* comm) {
  return release(MpiFunction::Comm_free, comm, [&] { return PMPI_Comm_free(comm); });
}

extern "C" int MPI_Comm_disconnect(MPI_Comm* comm) {
  return release(MpiFunction::Comm_disconnect, comm, [&] { return PMPI_Comm_disconnect(comm); });
}
