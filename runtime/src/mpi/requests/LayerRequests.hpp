// The requests the layer posts for itself alongside a user operation: the receive of a
// synchronous send's reply, the entry-time reduction of a nonblocking collective. They live
// in a preallocated pool (their buffers must not move while MPI owns them). When the user's
// operation completes and the layer's own request has not, the layer never blocks for it (that
// could deadlock a program the unmonitored run completes): the request is deferred and its
// correction applied, forward only, when a later wrapper finds it complete.
//
// Each process's layer has its own pool and deferred list (PendingWork, in the LayerContext).
// The pool is one calloc'd block, as HandleTable's slots: a large block comes as fresh zero
// pages, so making one writes nothing and a process pays only for the slots it uses. A zeroed
// LayerRequest is free (`in_use` false); acquire() sets what a slot's use relies on.
#pragma once

#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/control/CollectiveEntry.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "core/Monitor.hpp"

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

namespace vcmon::runtime::mpi {

class LayerRequests;

// An aggregate, so that the pool's zeroed block holds its slots without constructing them.
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
  const EntryReduction* reduction = nullptr; // CollectiveEntry: the process's, which checks it
  // Set when deferred: the completion call's entry, its end, and the clock then; its statement
  // (kNoSite: the user's operation completed outside a completion call, in a blocking one).
  tables::SiteId completion_site = tables::kNoSite;
  vclock::Moment call;
  std::uint64_t end_rt = 0;
  std::uint64_t vt_then = 0;
  bool settle = true; // false once withdrawn: completes without a correction
  std::atomic<bool> in_use{false};
  // Whose pool or heap it came from: the one that defers and releases it, so that completing
  // the user's operation needs only the request.
  LayerRequests* owner = nullptr;
  bool pooled = true;
};

class LayerRequests {
public:
  LayerRequests();
  // A slot still in use belongs to an operation the program never completed (erroneous, yet
  // plain MPICH finalizes it): MPI may still write into its buffers during or after
  // PMPI_Finalize, so the pool is then left allocated rather than freed under MPI.
  ~LayerRequests();
  LayerRequests(const LayerRequests&) = delete;
  LayerRequests& operator=(const LayerRequests&) = delete;

  // A free slot of the pool, else one from the heap (beyond the pool: off the common path).
  LayerRequest& acquire();

  // The synchronous send's reply receive, posted before the data leaves.
  LayerRequest& post_sync_reply(const Shadow& shadow, int dest, int tag, tables::SiteId site,
                                std::uint64_t bytes);
  // The nonblocking collective's entry reduction (with the process's `reduction`), posted
  // before the user's collective.
  LayerRequest& post_collective_entry(const EntryReduction& reduction, const Shadow& shadow,
                                      tables::SiteId site, std::uint64_t bytes,
                                      std::uint64_t sequence, const CollectiveEntry& entry);

  // The user's operation completed in a call entered at `call`: applies the correction into
  // `update` when the layer's request is complete too, else defers it (to its owner).
  static void user_completed(Monitor& monitor, LayerRequest& request, const vclock::Moment& call,
                             ClockUpdate& update);
  // The user's operation failed or was cancelled: withdraw the layer's request (a reduction
  // cannot be cancelled; it completes later, unused).
  static void withdraw(LayerRequest& request);
  // The user freed the operation while active: it completes unseen, and so does the layer's
  // request, unused (a receiver still answers a synchronous send it matches).
  static void forget(LayerRequest& request);

  // Applies the deferred corrections whose requests completed. Cheap when none is pending.
  // True when it may have moved the clock.
  bool poll(Monitor& monitor) {
    if (deferred_count_.load(std::memory_order_relaxed) != 0) {
      poll_deferred(monitor);
      return true;
    }
    return false;
  }
  // How many requests wait in the deferred list.
  unsigned deferred() const { return deferred_count_.load(std::memory_order_relaxed); }
  // At MPI_Finalize: applies what completes within a grace period, then cancels the rest.
  void finish_all(Monitor& monitor);

  // Enough for the synchronous sends and nonblocking collectives a program keeps in flight.
  static constexpr std::size_t kPoolSize = 1024;

private:
  struct Pool {
    LayerRequest slots[kPoolSize];
  };
  struct Free {
    void operator()(Pool* pool) const { std::free(pool); }
  };

  void defer(LayerRequest& request);
  void poll_deferred(Monitor& monitor);
  static void release(LayerRequest& request);

  std::unique_ptr<Pool, Free> pool_;
  std::atomic<std::size_t> cursor_{0};
  std::mutex deferred_mutex_;
  std::vector<LayerRequest*> deferred_;
  std::atomic<unsigned> deferred_count_{0};
};

} // namespace vcmon::runtime::mpi
