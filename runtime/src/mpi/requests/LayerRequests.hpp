// The requests the layer posts for itself alongside a user operation: the receive of a
// synchronous send's reply, the entry-time reduction of a nonblocking collective. They live
// in a preallocated pool (their buffers must not move while MPI owns them). When the user's
// operation completes and the layer's own request has not, the layer never blocks for it (that
// could deadlock a program the unmonitored run completes): the request is deferred and its
// correction applied, forward only, when a later wrapper finds it complete.
#pragma once

#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/clock/Moment.hpp"
#include "mpi/control/CollectiveEntry.hpp"
#include "mpi/stamps/StampProtocol.hpp"

#include "core/Monitor.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdint>

namespace vcmon::runtime::mpi {

struct LayerRequest {
  enum class Purpose : std::uint8_t { SyncReply, CollectiveEntry };

  MPI_Request request = MPI_REQUEST_NULL;
  Purpose purpose = Purpose::SyncReply;
  tables::SiteId site = tables::kNoSite;
  std::int32_t partner = tables::ComRecord::kCollective; // world rank of the receiver
  std::uint64_t bytes = 0;
  SyncReply reply;            // SyncReply: the receiver's post moment
  CollectiveEntry entry;      // CollectiveEntry: this rank's entry ...
  CollectiveEntry reduced;    // ... and all members', reduced
  std::uint64_t sequence = 0; // CollectiveEntry: the collective's number on its communicator
  // Set when deferred: the completion call's entry, its end, and the clock then; its statement
  // (kNoSite: the user's operation completed outside a completion call, in a blocking one).
  tables::SiteId completion_site = tables::kNoSite;
  Moment call;
  std::uint64_t end_rt = 0;
  std::uint64_t vt_then = 0;
  bool settle = true; // false once withdrawn: completes without a correction
  std::atomic<bool> in_use{false};
  bool pooled = true;
};

class LayerRequests {
public:
  static LayerRequest& acquire();

  // The synchronous send's reply receive, posted before the data leaves.
  static LayerRequest& post_sync_reply(const Shadow& shadow, int dest, int tag, tables::SiteId site,
                                       std::uint64_t bytes);
  // The nonblocking collective's entry reduction (with the process's `reduction`), posted
  // before the user's collective.
  static LayerRequest& post_collective_entry(const EntryReduction& reduction, const Shadow& shadow,
                                             tables::SiteId site, std::uint64_t bytes,
                                             std::uint64_t sequence, const CollectiveEntry& entry);

  // The user's operation completed in a call entered at `call`: applies the correction into
  // `update` when the layer's request is complete too, else defers it.
  static void user_completed(Monitor& monitor, LayerRequest& request, const Moment& call,
                             ClockUpdate& update);
  // The user's operation failed or was cancelled: withdraw the layer's request (a reduction
  // cannot be cancelled; it completes later, unused).
  static void withdraw(LayerRequest& request);
  // The user freed the operation while active: it completes unseen, and so does the layer's
  // request, unused (a receiver still answers a synchronous send it matches).
  static void forget(LayerRequest& request);

  // Applies the deferred corrections whose requests completed. Cheap when none is pending.
  // True when it may have moved the clock.
  static bool poll(Monitor& monitor) {
    if (deferred_count_.load(std::memory_order_relaxed) != 0) {
      poll_deferred(monitor);
      return true;
    }
    return false;
  }
  // At MPI_Finalize: applies what completes within a grace period, then cancels the rest.
  static void finish_all(Monitor& monitor);

private:
  static void poll_deferred(Monitor& monitor);
  static void release(LayerRequest& request);
  static inline std::atomic<unsigned> deferred_count_{0};
};

} // namespace vcmon::runtime::mpi
