// A thread's open activations (procedures, loops, call and communication statements), so
// that an exit finds its record without a lookup and a procedure entry knows the call
// statement that activated it. Fixed depth: deeper activations are counted, not stored.
#pragma once

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
  std::uint64_t entry_vt_ns;
  std::atomic<std::uint64_t>* time_ns; // where the exit adds the elapsed virtual time
  ProcSlots* proc; // the procedure's slots (recursion bookkeeping), else nullptr
};

struct ActivationStack {
  static constexpr std::uint32_t kMaxDepth = 256;
  Frame frames[kMaxDepth];
  std::uint32_t depth;
  std::uint32_t overflowed; // activations open beyond kMaxDepth

  Frame* top() { return depth > 0 ? &frames[depth - 1] : nullptr; }
};

// Everything a probe touches on its thread. Zero-initialised thread-local storage: no
// constructor, no guard on access.
struct ThreadState {
  ActivationStack stack;
  ThreadRecords* records;
  std::uint64_t last_vt_ns; // latest virtual time a probe of this thread read
};

} // namespace vcmon::runtime
