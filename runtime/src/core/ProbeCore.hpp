// What each probe does to a thread's activation stack and records, and what it charges to
// intrusion. Independent of the registry and of thread-local storage, so the monitor can
// run it on scratch records to calibrate the probe cost.
#pragma once

#include "core/ActivationStack.hpp"
#include "core/OverflowRecords.hpp"
#include "core/ThreadRecords.hpp"
#include "vcmon/vclock/VirtualClock.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace vcmon::runtime {

struct ProbeCosts {
  std::uint64_t timed_ns = 0;     // a probe that reads the clock (procedure and loop enter/exit)
  std::uint64_t untimed_ns = 0;   // one that does not (call and comm markers, counted loops)
  std::uint64_t inject_ns = 0;    // VCMON_INJECT_PROBE_NS: busy-waited and measured
  std::uint64_t throttled_ns = 0; // a throttled procedure's enter or exit
};

// When a procedure stops paying clock reads on a thread (as TAU throttles): once it has been
// activated `calls` times there, if those took less than `mean_ns` each on average. Its
// counts stay exact, what its probes cost is still charged, and its time from then on is its
// caller's (docs/runtime.md, "Throttling"). `calls` 0: never.
struct ThrottlePolicy {
  std::uint64_t calls = 0;
  std::uint64_t mean_ns = 0;
};

// The calling context of a nonblocking call's statement, taken while the call runs, for the
// record its completion adds once the statement has closed: valid on `thread` only, whose
// context tree holds it.
struct StatementContext {
  ContextNode* node = nullptr;
  const ThreadState* thread = nullptr;
};

// Hidden, like everything in the core: calls inside libvcmon bind directly, not through the PLT.
class __attribute__((visibility("hidden"))) ProbeCore {
public:
  ProbeCore(vclock::VirtualClock& clock, OverflowRecords& overflow, ProbeCosts costs)
      : clock_(clock), overflow_(overflow), costs_(costs) {}

  void set_costs(ProbeCosts costs) { costs_ = costs; }
  const ProbeCosts& costs() const { return costs_; }
  void set_throttle(ThrottlePolicy throttle) { throttle_ = throttle; }

  // `kind_index` is the site's index among sites of its kind (SiteEntry::kind_index).
  void enter_procedure(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index);
  void exit_procedure(ThreadState& thread, std::uint32_t site);
  void enter_loop(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index);
  void iterate_loop(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index);
  void exit_loop(ThreadState& thread, std::uint32_t site);
  // The exit of a loop whose iterations the instrumented code counted in a local.
  void exit_loop_after(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index,
                       std::uint64_t iterations);
  // A counted loop's executions and iterations since its enclosing timed loop began: counts
  // only, its time being the enclosing loop's.
  void add_counted_loop(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index,
                        std::uint64_t executions, std::uint64_t iterations);
  // Call and communication statements only mark the stack: a procedure entered below a
  // call frame was activated by it; MPI calls below a comm frame are charged to it.
  void enter_statement(ThreadState& thread, std::uint32_t site, tables::SiteKind kind);
  void exit_statement(ThreadState& thread, std::uint32_t site, tables::SiteKind kind);

  // Records the time so far of every open procedure and loop of this thread (the profile is
  // written while main is still open), restarting them at `now_vt_ns` so that their exits
  // add only what follows. `now_vt_ns` must be a time the clock never goes back below (the
  // floor, or a reading after it with no wait since): time settled and then taken back by a
  // receive or collective (VirtualClock::continue_from) would stay counted in an activation
  // that then exits below it, and children would add up to more than their parent.
  void settle_open_activations(ThreadState& thread, std::uint64_t now_vt_ns);

  // The thread ends with activations open: they will never exit, and its records go to a new
  // thread, which must not find them open (active procedures, timed loop contexts).
  static void abandon_open_activations(ThreadState& thread);
  // A thread ended: what its records last saw bounds what any thread sees next. A thread that
  // joined it covers its activations (main's time covers a worker's recursion), though the
  // clock's raw reading may have stepped back below them (see thread_virtual_at).
  void thread_ended(const ThreadState& thread);
  // Virtual time as this thread sees it (its records, and MPI_Wtime under VCMON_WTIME=virtual):
  // never earlier than its previous reading. Probes charge calibrated constants that a probe
  // may not really have cost where it ran, so the raw reading can step back; a parent's time
  // must still cover its children, and a program's clock must not run backwards.
  std::uint64_t thread_virtual_at(ThreadState& thread, std::uint64_t real_ns) const;
  // The least virtual time `thread` may see now: its own last reading, and every ended
  // thread's.
  std::uint64_t virtual_floor(const ThreadState& thread) const {
    return std::max(thread.last_vt_ns, ended_threads_vt_.load(std::memory_order_relaxed));
  }
  // The time base moved by `delta_ns` (Monitor::shift_time_base): so do the ended threads'.
  void rebase_ended_threads(std::int64_t delta_ns);
  // The clock moved to another time base (every reading `delta_ns` more): this thread's open
  // activations move with it, so that the shift is not counted as their time.
  static void rebase_open_activations(ThreadState& thread, std::int64_t delta_ns);

  // The record of (site, partner) in `slots`, found or claimed: this thread's own slot, or a
  // shared overflow entry; neither when both are full. `context`: the statement's calling
  // context, which sums its partners (nullptr: not known, or folded).
  struct ComRecordRef {
    ComKeyedRecord* owned = nullptr;
    OverflowRecords::Entry* shared = nullptr;
    ContextNode* context = nullptr;
  };
  ComRecordRef find_com(ComSlots& slots, std::uint32_t site, std::int32_t partner);
  // The calling context an MPI call charged to comm statement `site` adds to: the innermost
  // open activation when it is that statement; for a synthetic site (an MPI call outside comm
  // statements), its context under the innermost one. nullptr when neither: a statement
  // completed after it closed, activations folded beyond the stack, a full tree.
  static ContextNode* com_context(ThreadState& thread, std::uint32_t site, bool synthetic);
  // Adds one communication to a record found before (a receive finds it while its data is
  // still arriving). Not a probe: the PMPI layer charges its own work. `message`: it moved
  // `bytes` of data (false: a completion call's waiting, MPI_Init's own time).
  static void add_com(const ComRecordRef& record, std::uint64_t transmission_ns,
                      std::uint64_t sync_delay_ns, std::uint64_t bytes, bool message = true);

private:
  std::uint64_t now_ns() const { return clock_.source().now_ns(); }
  // Pushes a frame, or folds an activation too deep to store (nullptr): it is counted, and a
  // folded statement is remembered as the innermost for the activations it contains.
  Frame* push(ThreadState& thread, std::uint32_t site, tables::SiteKind kind);
  // Closes the innermost open activation of (site, kind) and any left open above it (a
  // longjmp out of them); counts the exit as unmatched when there is none.
  void close_activation(ThreadState& thread, std::uint32_t site, tables::SiteKind kind,
                        std::uint64_t end_vt_ns);
  // What closing a frame undoes besides its time: its procedure's activity, its loop's timing.
  static void release_frame(const Frame& frame);
  void close_frame(const Frame& frame, std::uint64_t end_vt_ns);
  // Finds the frame's calling context under the enclosing one (frame.context), adding it on
  // its first entry, and makes it the frame's node and context. nullptr when the tree is
  // full: the activation folds into the enclosing context, which counts it.
  static ContextNode* enter_context(ThreadRecords& records, Frame& frame);
  // A loop's frame times its node, unless an open activation does already (recursion
  // re-entered the loop). A procedure's needs no such count: its recursion is its `active`.
  static void time_loop_node(Frame& frame);
  // The node of the innermost open activation when it is loop `site`.
  static ContextNode* innermost_loop_node(ThreadState& thread, std::uint32_t site);
  // Whether an activation opened now hangs under an untimed activation of a throttled
  // procedure or a loop in one (Frame::throttled): the innermost procedure or loop open (call
  // statements between hold no time).
  static bool encloses_untimed(const ActivationStack& stack) {
    for (std::uint32_t i = stack.depth; i > 0 && stack.folded == 0; --i) {
      const Frame& frame = stack.frames[i - 1];
      if (frame.kind != tables::SiteKind::Call) {
        return frame.throttled;
      }
    }
    return false;
  }
  // Times the untimed activations that enclose an activation that records time, from
  // `now_vt_ns` on: the time of what they hold hangs under their nodes, and their own left
  // out made their self time negative. Each is then a timed activation, as counted.
  void time_enclosing(ActivationStack& stack, std::uint64_t now_vt_ns);
  // Whether an exit of (site, kind) closes an activation that read no clock at its entry
  // (throttled, recursive or folded), and closes it without reading one either.
  static bool closes_untimed(const ActivationStack& stack, std::uint32_t site,
                             tables::SiteKind kind);
  void close_untimed(ThreadState& thread, std::uint32_t site, tables::SiteKind kind);
  // Counts an activation of `proc` and says whether it is to be timed.
  bool timed_activation(ProcSlots& proc) const;
  // Adds the frame's virtual time since its entry to its record (when it keeps time).
  static void add_elapsed(const Frame& frame, std::uint64_t end_vt_ns);
  // Charges the probe: its calibrated constant, plus the injected cost busy-waited from
  // `start_ns` and measured.
  void charge(std::uint64_t start_ns, std::uint64_t constant_ns);

  vclock::VirtualClock& clock_;
  OverflowRecords& overflow_;
  ProbeCosts costs_;
  ThrottlePolicy throttle_;
  // The latest virtual time an ended thread's records saw. Written once per thread end, read
  // by timed probes.
  std::atomic<std::uint64_t> ended_threads_vt_{0};
};

} // namespace vcmon::runtime
