// Collectives synchronise virtual time (docs/design.md, "Virtual time of a collective"): every
// participant leaves at the latest participant's virtual entry plus the operation's own cost. The
// layer reduces the entries (CollectiveEntry: virtual and real moments, and which collective each
// member called) on the shadow communicator: before the user's blocking collective, or as a
// nonblocking reduction posted with the user's nonblocking one and tracked with its request.
// Collectives may synchronise in MPI, so the extra reduction changes no correct program's outcome;
// members that call different collectives at the same position are reported (CollectiveEntry).
#pragma once

#include "core/MpiFunctionTable.hpp"
#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/control/CollectiveEntry.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/control/MembersEntered.hpp"
#include "mpi/control/WaitPolicy.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/layer/UnpolledCall.hpp"
#include "mpi/requests/LayerRequests.hpp"
#include "mpi/requests/LayerWork.hpp"
#include "mpi/requests/RequestTable.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "mpi/wrappers/PolledRequest.hpp"
#include "mpi/wrappers/UnpolledCallWrapper.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>

namespace vcmon::runtime::mpi {

class Collectives {
public:
  // Bytes of this rank's block (`count` elements of `datatype`); 0 when not meaningful.
  template <typename Count> static std::uint64_t bytes_of(Count count, MPI_Datatype datatype) {
    MPI_Count size = 0;
    if (count <= 0 || datatype == MPI_DATATYPE_NULL ||
        PMPI_Type_size_c(datatype, &size) != MPI_SUCCESS) {
      return 0;
    }
    return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
  }

  // `bytes()` is evaluated only when monitoring. `root`: -1 when it has none.
  template <typename Bytes, typename Call>
  static int blocking(MpiFunction function, int root, MPI_Comm comm, Bytes&& bytes, Call&& pmpi) {
    const auto [monitor, context, pending, shadow] = participation(comm);
    if (shadow == nullptr) {
      return context != nullptr && context->unshadowed.contains(comm)
                 ? unshadowed(*monitor, *context, root, comm, pmpi)
                 : pmpi();
    }
    // Roots of intercommunicators (MPI_ROOT, MPI_PROC_NULL) are MPI's to check.
    if (!shadow->inter && rejected_root(root, shadow->peers)) {
      return pmpi();
    }
    tables::SiteId site;
    std::uint64_t block_bytes;
    vclock::Moment entry;
    CollectiveEntry reduced;
    {
      LayerWork work(*monitor, *pending);
      site = monitor->comm_site(index_of(function));
      block_bytes = bytes();
      entry = vclock::Moment::now(monitor->clock());
      context->control.serve_if_due(entry);
    }
    // The entry reduction is nonblocking and polled: a member waiting for the others answers
    // the control channel meanwhile. Once it completed, every member is in the collective.
    const std::uint64_t sequence = shadow->collectives_entered++;
    CollectiveEntry mine(entry, call_of(*monitor, *shadow, function, root, site));
    MPI_Request reduction = MPI_REQUEST_NULL;
    context->entry_reduction.start(mine, reduced, shadow->duplicate, &reduction);
    MembersEntered entered(*shadow, reduction);
    const CollectiveWait wait({index_of(function), site}, entry.vt, *shadow, sequence,
                              entered.request());
    WaitPolicy::wait_until(*monitor, context->control, wait, [&] { return entered.poll(); });
    context->entry_reduction.check_match(reduced, sequence);
    shadow->entered_by_all.store(sequence + 1, std::memory_order_relaxed);
    // Everyone is there once the reduction returned: from here on the collective takes its
    // own time (the reduction itself is the layer's).
    const std::uint64_t start_rt = vclock::Moment::now(monitor->clock()).rt;
    int rc;
    {
      const UnpolledCall inside(start_rt);
      rc = pmpi();
    }
    const std::uint64_t end_ns = monitor->clock().source().now_ns();
    ClockUpdate update;
    LayerWork work(*monitor, *pending, end_ns, update);
    const std::uint64_t own = vclock::elapsed(start_rt, monitor->clock().real_at(end_ns));
    // Every member had entered by the reduction's return.
    const std::uint64_t latest_vt =
        seen_by(vclock::Moment{reduced.latest_vt(), reduced.latest_rt()}, start_rt).vt;
    monitor->record_com(site, tables::ComRecord::kCollective, own,
                        vclock::elapsed(entry.vt, latest_vt), block_bytes);
    update.include(std::max(entry.vt, latest_vt) + own);
    return rc;
  }

  template <typename Bytes, typename Call>
  static int nonblocking(MpiFunction function, int root, MPI_Comm comm, Bytes&& bytes,
                         MPI_Request* request, Call&& pmpi) {
    const auto [monitor, context, pending, shadow] = participation(comm);
    if (shadow == nullptr) {
      return pmpi();
    }
    TrackedRequest tracked;
    tracked.kind = TrackedRequest::Kind::Collective;
    tracked.shadow = shadow;
    tracked.sequence = shadow->collectives_entered++;
    {
      LayerWork work(*monitor, *pending);
      tracked.site = monitor->comm_site(index_of(function));
      tracked.post = vclock::Moment::now(monitor->clock());
      tracked.layer = &pending->layer_requests.post_collective_entry(
          context->entry_reduction, *shadow, tracked.site, bytes(), tracked.sequence,
          CollectiveEntry(tracked.post, call_of(*monitor, *shadow, function, root, tracked.site)));
    }
    const int rc = pmpi();
    LayerWork work(*monitor, *pending);
    if (rc != MPI_SUCCESS || context->requests.insert(*request, tracked) == nullptr) {
      LayerRequests::withdraw(*tracked.layer);
    }
    return rc;
  }

  // A persistent collective (MPI_Allreduce_init, ...): kept as an inactive request; each
  // MPI_Start posts its entry and counts it in the communicator's collectives, as a nonblocking
  // collective's post does (RequestCompletion::starting).
  template <typename Bytes, typename Call>
  static int persistent(MpiFunction function, int root, MPI_Comm comm, Bytes&& bytes,
                        MPI_Request* request, Call&& pmpi) {
    const auto [monitor, context, pending, shadow] = participation(comm);
    const int rc = pmpi();
    if (shadow == nullptr || rc != MPI_SUCCESS) {
      return rc;
    }
    LayerWork work(*monitor, *pending);
    TrackedRequest tracked;
    tracked.kind = TrackedRequest::Kind::PersistentCollective;
    tracked.shadow = shadow;
    tracked.site = monitor->comm_site(index_of(function));
    tracked.bytes = bytes();
    tracked.call = call_of(*monitor, *shadow, function, root, tracked.site);
    context->requests.insert(*request, tracked);
    return rc;
  }

private:
  // A root MPI rejects at once (`root` -1: the collective has none; `members`: of an
  // intracommunicator): MPI returns (or aborts) before meeting anyone, so the layer must not
  // wait for the members first (that ended in a false deadlock report, or a hang).
  static bool rejected_root(int root, int members) {
    return root != -1 && (root < 0 || root >= members);
  }

  // A blocking collective on an unshadowed (intra)communicator: entered polled, then run.
  template <typename Call>
  static int unshadowed(Monitor& monitor, LayerContext& context, int root, MPI_Comm comm,
                        Call&& pmpi) {
    int members = 0;
    PMPI_Comm_size(comm, &members);
    if (rejected_root(root, members)) {
      return pmpi();
    }
    enter_unshadowed(monitor, context, comm);
    return unpolled(pmpi);
  }

  // What a collective on `comm` reaches first; `shadow` null when the layer does not monitor it.
  struct __attribute__((visibility("hidden"))) Participation {
    Monitor* monitor = nullptr;
    LayerContext* context = nullptr;
    PendingWork* pending = nullptr;
    const Shadow* shadow = nullptr;
  };
  static Participation participation(MPI_Comm comm) {
    Monitor* monitor = Layer::monitor();
    const LayerParts parts = layer_parts(monitor);
    if (parts.stamps == nullptr) {
      return {};
    }
    return {monitor, parts.context, parts.pending, parts.stamps->shadows().find(comm)};
  }

  static CollectiveCall call_of(const Monitor& monitor, const Shadow& shadow, MpiFunction function,
                                int root, tables::SiteId site) {
    // An intercommunicator's two groups give different roots (MPI_ROOT, MPI_PROC_NULL, a rank).
    // A large-count twin is the collective MPI matches it with: members may call either.
    return {matched_collective(index_of(function)), shadow.inter ? -1 : root, site,
            monitor.world_rank()};
  }
};

} // namespace vcmon::runtime::mpi
