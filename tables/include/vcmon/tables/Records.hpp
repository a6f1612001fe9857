// Dynamic records (DESIGN.md §4): their size depends on sites × partners, never on how often
// the sites run. All times are virtual nanoseconds.
#pragma once

#include "vcmon/tables/Site.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vcmon::tables {

// Per (procedure, call statement that activated it). call_site is kNoSite when the procedure
// was entered from uninstrumented code (e.g. main from the C runtime).
struct ProcRecord {
  SiteId proc = kNoSite;
  SiteId call_site = kNoSite;
  std::uint64_t time_ns = 0;
  std::uint64_t count = 0;
  bool operator==(const ProcRecord&) const = default;
};

struct LoopRecord {
  SiteId loop = kNoSite;
  std::uint64_t time_ns = 0;
  std::uint64_t count = 0;      // executions of the loop statement
  std::uint64_t iterations = 0; // iterations over all executions
  bool operator==(const LoopRecord&) const = default;
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
  bool operator==(const ComRecord&) const = default;
};

// What the monitor itself did on a rank (DESIGN.md §5–§7).
struct MonitorCounters {
  std::uint64_t probe_events = 0;
  std::uint64_t wildcard_decisions = 0;
  std::uint64_t cycle_breaks = 0;
  std::uint64_t control_messages = 0;
  std::uint64_t safety_wait_ns = 0;
  // Activations entered beyond the activation stack's depth (RunMetadata::activation_depth):
  // counted in their records, their time left in the deepest activation the stack holds.
  std::uint64_t folded_activations = 0;
  // Wildcard decisions taken without waiting for a rank stuck in an MPI call that could not
  // answer (docs/deadlock.md): possibly not the message the unmonitored run takes.
  std::uint64_t forced_decisions = 0;
  bool operator==(const MonitorCounters&) const = default;
};

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
  bool operator==(const RankRecords&) const = default;
};

} // namespace vcmon::tables
