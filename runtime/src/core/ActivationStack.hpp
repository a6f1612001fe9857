// A thread's open activations (procedures, loops, call and communication statements), so
// that an exit finds its record without a lookup and a procedure entry knows the call
// statement that activated it. Fixed depth: deeper activations are folded, i.e. counted in
// their records but not stored, their time left in the deepest stored activation.
#pragma once

#include "core/ContextTree.hpp"
#include "core/RecordSlots.hpp"
#include "vcmon/tables/Site.hpp"

#include <atomic>
#include <cstdint>

namespace vcmon::runtime {

struct ThreadRecords;

struct Frame {
  std::uint32_t site;
  tables::SiteKind kind;
  bool adds_time;     // false for recursive activations: the outermost one covers them
  bool shared_record; // the record lives in OverflowRecords: add with fetch_add
  bool times_node;    // the exit adds its time to `node` (see below)
  // An untimed activation of a throttled procedure (not a recursive one), or a loop entered in
  // one. It is timed from the moment an activation that records time opens inside it
  // (ProbeCore::time_enclosing).
  bool throttled;
  std::uint64_t entry_vt_ns;
  std::atomic<std::uint64_t>* time_ns; // where the exit adds the elapsed virtual time
  ProcSlots* proc; // the procedure's slots (recursion bookkeeping), else nullptr
  std::atomic<std::uint64_t>* untimed; // `throttled`: its record's untimed activations, or nullptr
  // The calling context activations inside this one hang under: this activation's node, or,
  // for a recursive one, its procedure's outermost open node (recursion folds into it).
  ContextNode* context;
  // The node this activation counts in (nullptr: folded, the tree is full). Its exit adds its
  // time there unless the activation is recursive, throttled, or re-entered a loop's node that
  // an open activation is timing already.
  ContextNode* node;
};

struct ActivationStack {
  static constexpr std::uint32_t kMaxDepth = 256;
  Frame frames[kMaxDepth];
  std::uint32_t depth;
  std::uint32_t folded; // activations open beyond kMaxDepth
  // The latest statement folded, and `folded` just after its entry (0: none left open). It is
  // the innermost open activation while `folded` equals that level again: this is how a
  // folded procedure still learns its call site (recursion), and an MPI call its comm site.
  std::uint32_t folded_statement_site;
  tables::SiteKind folded_statement_kind;
  std::uint32_t folded_statement_level;

  Frame* top() { return depth > 0 ? &frames[depth - 1] : nullptr; }
  const Frame* top() const { return depth > 0 ? &frames[depth - 1] : nullptr; }

  // The site of the innermost open activation when it is a statement of `kind` (a call, a
  // communication statement), else kNoSite.
  std::uint32_t innermost_statement(tables::SiteKind kind) const {
    if (folded > 0) [[unlikely]] {
      const bool innermost = folded_statement_level == folded && folded_statement_kind == kind;
      return innermost ? folded_statement_site : tables::kNoSite;
    }
    return depth > 0 && frames[depth - 1].kind == kind ? frames[depth - 1].site : tables::kNoSite;
  }
};

// Everything a probe touches on its thread, kept with the thread's records (ThreadRecords) and
// reached through a thread-local pointer (core/ThisThread.hpp). Zero-initialised: no
// constructor to run.
struct ThreadState {
  ActivationStack stack;
  ThreadRecords* records;
  std::uint64_t last_vt_ns; // latest virtual time a probe of this thread read
  // Counts this thread's MPI calls that made a record and its reads of MPI_Wtime in virtual
  // time: a poll knows by it whether the thread did anything in MPI since its previous poll.
  std::uint64_t mpi_events;
  // A probe of this thread is running: a signal handler that runs instrumented code in the
  // middle of it (its stack or context tree half updated) has its probes ignored.
  bool in_probe;
};

} // namespace vcmon::runtime
