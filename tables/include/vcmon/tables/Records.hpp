// Dynamic records (docs/design.md, "Records"): their size depends on sites × partners, never on how
// often the sites run. All times are virtual nanoseconds.
#pragma once

#include "vcmon/tables/Site.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

namespace vcmon::tables {

// Per (procedure, call statement that activated it). call_site is kNoSite when the procedure
// was entered from uninstrumented code (e.g. main from the C runtime).
struct ProcRecord {
  SiteId proc = kNoSite;
  SiteId call_site = kNoSite;
  std::uint64_t time_ns = 0;
  std::uint64_t count = 0;
  // Activations among `count` whose time is not in time_ns: the procedure was throttled on
  // their thread (docs/runtime.md, "Throttling"), so their time is their caller's.
  std::uint64_t untimed = 0;
  bool operator==(const ProcRecord&) const = default;
};

struct LoopRecord {
  SiteId loop = kNoSite;
  std::uint64_t time_ns = 0;
  std::uint64_t count = 0;      // executions of the loop statement
  std::uint64_t iterations = 0; // iterations over all executions
  bool operator==(const LoopRecord&) const = default;
};

// Message size classes: empty, then one per factor of 16 from 1 B: [1 B, 16 B), [16 B, 256 B),
// [256 B, 4 KiB), [4 KiB, 64 KiB), [64 KiB, 1 MiB), [1 MiB, 16 MiB), 16 MiB and more.
inline constexpr std::size_t kSizeClasses = 8;
constexpr std::size_t size_class(std::uint64_t bytes) {
  return bytes == 0
             ? 0
             : std::min<std::size_t>(kSizeClasses - 1,
                                     1 + (static_cast<std::size_t>(std::bit_width(bytes)) - 1) / 4);
}
// The smallest size of class `c` (its lower bound).
constexpr std::uint64_t size_class_floor(std::size_t c) {
  return c == 0 ? 0 : std::uint64_t{1} << (4 * (c - 1));
}

// The sizes of the messages some operations moved: how many per size class, the smallest and
// the largest (both 0 while there is none).
struct MessageSizes {
  std::uint64_t min_bytes = 0;
  std::uint64_t max_bytes = 0;
  std::array<std::uint64_t, kSizeClasses> classes{};

  std::uint64_t messages() const {
    return std::accumulate(classes.begin(), classes.end(), std::uint64_t{0});
  }
  // The size classes of the smallest and the largest message (only when messages() > 0).
  std::size_t first_class() const {
    std::size_t c = 0;
    while (classes[c] == 0) {
      ++c;
    }
    return c;
  }
  std::size_t last_class() const {
    std::size_t c = kSizeClasses - 1;
    while (classes[c] == 0) {
      --c;
    }
    return c;
  }
  // Whether the smallest and the largest fit the classes (true when there is no message).
  bool extremes_fit_classes() const {
    return messages() == 0 || (min_bytes <= max_bytes && size_class(min_bytes) == first_class() &&
                               size_class(max_bytes) == last_class());
  }
  // `other`'s messages added to these.
  void absorb(const MessageSizes& other) {
    if (other.messages() == 0) {
      return;
    }
    const bool had = messages() > 0;
    min_bytes = had ? std::min(min_bytes, other.min_bytes) : other.min_bytes;
    max_bytes = had ? std::max(max_bytes, other.max_bytes) : other.max_bytes;
    for (std::size_t c = 0; c < kSizeClasses; ++c) {
      classes[c] += other.classes[c];
    }
  }
  bool operator==(const MessageSizes&) const = default;
};

// Per (communication statement, partner rank). partner is the rank in MPI_COMM_WORLD, or
// kCollective for collective operations.
struct ComRecord {
  static constexpr std::int32_t kCollective = -1;
  SiteId comm = kNoSite;
  std::int32_t partner = kCollective;
  std::uint64_t transmission_ns = 0;
  std::uint64_t sync_delay_ns = 0;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
  // Of the `count` operations, those that moved a message (or a collective's data). A
  // completion call's records hold waiting, not messages (docs/runtime.md, "Accounting").
  // Profiles before format 3 have none.
  MessageSizes sizes{};
  bool operator==(const ComRecord&) const = default;
};

// One calling context of a rank (docs/runtime.md, "Calling contexts"): a path of sites from a
// thread's start, its threads' trees merged by path. Contexts are listed parents first; `parent`
// is the parent's position in the list plus one, 0 for a context at the top (no caller). The
// fields used depend on the site's kind: a procedure's activations (count, time, untimed), a
// loop's executions (count, time, iterations), a call statement's executions (count), a comm
// statement's operations over all partners (count, transmission in time_ns, delay, bytes).
struct ContextRecord {
  std::uint32_t parent = 0;
  SiteId site = kNoSite;
  std::uint64_t count = 0;
  std::uint64_t time_ns = 0;
  std::uint64_t untimed = 0;
  std::uint64_t iterations = 0;
  std::uint64_t sync_delay_ns = 0;
  std::uint64_t bytes = 0;
  // Activations inside this context that got no context of their own (deeper than the
  // activation stack, or beyond VCMON_MAX_CONTEXTS): their time is in this context's.
  std::uint64_t folded = 0;
  bool operator==(const ContextRecord&) const = default;
};

// The key that finds a context by path among a list's contexts: its parent (as
// ContextRecord::parent numbers it) and its site.
constexpr std::uint64_t context_path_key(std::uint32_t parent, SiteId site) {
  return (std::uint64_t{parent} << 32) | site;
}

// What the monitor itself did on a rank (docs/design.md, "Virtual time" to "Real deadlocks").
struct MonitorCounters {
  std::uint64_t probe_events = 0;
  std::uint64_t wildcard_decisions = 0;
  std::uint64_t cycle_breaks = 0;
  std::uint64_t control_messages = 0;
  std::uint64_t safety_wait_ns = 0;
  // Activations entered beyond the activation stack's depth (RunMetadata::activation_depth):
  // counted in their records, their time left in the deepest activation the stack holds.
  std::uint64_t folded_activations = 0;
  // Activations folded into their caller's calling context, over all contexts (the sum of
  // ContextRecord::folded, and of those folded at the top). Profiles before format 6: 0.
  std::uint64_t folded_contexts = 0;
  // Wildcard decisions taken without waiting for a rank stuck in an MPI call that could not
  // answer (docs/deadlock.md): possibly not the message the unmonitored run takes.
  std::uint64_t forced_decisions = 0;
  bool operator==(const MonitorCounters&) const = default;
};

// The fields of a record that hold sums (what two records of one key add up to), as member
// pointers, for code that treats them alike: merging, subtracting, testing for empty, encoding.
template <typename Record> struct SumFields;
template <> struct SumFields<ProcRecord> {
  static constexpr auto kFields =
      std::tuple{&ProcRecord::time_ns, &ProcRecord::count, &ProcRecord::untimed};
};
template <> struct SumFields<LoopRecord> {
  static constexpr auto kFields =
      std::tuple{&LoopRecord::time_ns, &LoopRecord::count, &LoopRecord::iterations};
};
// The message sizes are not plain sums: MessageSizes::absorb adds them.
template <> struct SumFields<ComRecord> {
  static constexpr auto kFields = std::tuple{&ComRecord::transmission_ns, &ComRecord::sync_delay_ns,
                                             &ComRecord::count, &ComRecord::bytes};
};
template <> struct SumFields<ContextRecord> {
  static constexpr auto kFields =
      std::tuple{&ContextRecord::count,      &ContextRecord::time_ns,       &ContextRecord::untimed,
                 &ContextRecord::iterations, &ContextRecord::sync_delay_ns, &ContextRecord::bytes,
                 &ContextRecord::folded};
};
template <> struct SumFields<MonitorCounters> {
  static constexpr auto kFields =
      std::tuple{&MonitorCounters::probe_events,    &MonitorCounters::wildcard_decisions,
                 &MonitorCounters::cycle_breaks,    &MonitorCounters::control_messages,
                 &MonitorCounters::safety_wait_ns,  &MonitorCounters::folded_activations,
                 &MonitorCounters::folded_contexts, &MonitorCounters::forced_decisions};
};

// Calls visit(field) with each of Record's sum fields, a member pointer, in the order above.
template <typename Record, typename Visit> constexpr void for_each_sum_field(Visit&& visit) {
  std::apply([&](auto... field) { (visit(field), ...); }, SumFields<Record>::kFields);
}

// `into` with each of `from`'s sums added.
template <typename Record> constexpr void add_sums(Record& into, const Record& from) {
  for_each_sum_field<Record>([&](auto field) { into.*field += from.*field; });
}

// Whether every sum of `r` is zero.
template <typename Record> constexpr bool sums_are_zero(const Record& r) {
  bool zero = true;
  for_each_sum_field<Record>([&](auto field) { zero = zero && r.*field == 0; });
  return zero;
}

// Everything one rank contributes to a profile.
struct RankRecords {
  std::int32_t rank = 0;
  std::string host;
  std::uint64_t virtual_ns = 0;     // virtual time from MPI_Init (or first probe) to the end
  std::uint64_t real_ns = 0;        // real time over the same span
  std::uint64_t intrusion_ns = 0;   // real − virtual
  std::int64_t clock_offset_ns = 0; // estimated offset to rank 0's time base
  MonitorCounters counters;
  std::vector<ProcRecord> procs;
  std::vector<LoopRecord> loops;
  std::vector<ComRecord> coms;
  std::vector<ContextRecord> contexts; // empty in profiles before format 6
  bool operator==(const RankRecords&) const = default;
};

} // namespace vcmon::tables
