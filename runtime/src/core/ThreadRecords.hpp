// One thread's records: only that thread writes them (no locked instruction on the common
// path); the finalize reader sums all threads' sets. A set is handed to the next new thread
// when its thread ends, so a program creating many short threads does not grow them.
#pragma once

#include "core/ActivationStack.hpp"
#include "core/ContextTree.hpp"
#include "core/PagedArray.hpp"
#include "core/RecordSlots.hpp"

#include <atomic>
#include <cstdint>

namespace vcmon::runtime {

struct ThreadRecords {
  // Indexed by the site's index among sites of its kind (SiteEntry::kind_index).
  PagedArray<ProcSlots, 8, 1024> procs;
  PagedArray<LoopCounters, 8, 1024> loops;
  PagedArray<ComSlots, 8, 1024> coms;
  // Indexed by MPI function (MpiFunctionTable): records of MPI calls outside comm statements.
  PagedArray<ComSlots, 6, 64> synthetic_coms;
  // The same activations by calling context (per-site records sum over contexts).
  ContextTree contexts;

  std::atomic<std::uint64_t> probe_events{0};
  std::atomic<std::uint64_t> folded_activations{0}; // entered deeper than the stack holds
  std::atomic<std::uint64_t> unmatched_exits{0};    // exits with no matching open activation

  // The probe state of the thread that holds this set (its pointer in core/ThisThread.hpp).
  ThreadState thread{};

  std::atomic<bool> in_use{true};
  ThreadRecords* next = nullptr;
};

// Every record set ever created, in a lock-free list (sets are never freed before exit).
class __attribute__((visibility("hidden"))) ThreadRecordsList {
public:
  // A free set from an ended thread, or a new one, with room for `max_contexts` contexts
  // (VCMON_MAX_CONTEXTS; a reused set keeps the capacity it had).
  ThreadRecords* acquire(std::uint32_t max_contexts);
  void release(ThreadRecords* records) { records->in_use.store(false, std::memory_order_release); }

  // Threads that have records now (that probed or called MPI, and have not ended).
  int live_threads() const {
    int live = 0;
    for (ThreadRecords* r = head_.load(std::memory_order_acquire); r != nullptr; r = r->next) {
      live += r->in_use.load(std::memory_order_acquire) ? 1 : 0;
    }
    return live;
  }

  template <typename Visit> void for_each(Visit&& visit) const {
    for (ThreadRecords* r = head_.load(std::memory_order_acquire); r != nullptr; r = r->next) {
      visit(static_cast<const ThreadRecords&>(*r));
    }
  }

private:
  std::atomic<ThreadRecords*> head_{nullptr};
};

} // namespace vcmon::runtime
