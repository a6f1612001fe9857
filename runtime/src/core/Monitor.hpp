// The per-process monitor: what the PMPI layer (runtime/src/mpi/) needs from the core
// (probes, records, virtual clock, profile). Internal to libvcmon.
#pragma once

#include "vcmon/tables/Records.hpp"
#include "vcmon/tables/Site.hpp"
#include "vcmon/vclock/VirtualClock.hpp"

#include <cstdint>
#include <string_view>

namespace vcmon::runtime {

// Process-wide settings from VCMON_* environment variables (docs/runtime.md).
struct Config;

class Monitor {
public:
  // The one instance; constructed on first use (before main if a unit registers first).
  static Monitor& instance();

  // False when VCMON_DISABLE=1: the PMPI layer then passes every call straight through.
  bool enabled() const;
  const Config& config() const;
  vclock::VirtualClock& clock();

  // Constant charged per monitor action for what cannot be measured from inside.
  std::uint64_t action_cost_ns() const;

  // --- PMPI layer hooks -------------------------------------------------------------
  // After PMPI_Init: learns rank, size and host; the PMPI layer then measures the clock
  // offset to rank 0 and reports it with set_clock_offset.
  void on_mpi_init(int world_rank, int world_size);
  void set_clock_offset(std::int64_t offset_ns);
  // Before PMPI_Finalize: gathers every rank's records and writes the profile (collective).
  void on_mpi_finalize();

  // The communication site an MPI call is charged to: the comm statement this thread is
  // inside (vcmon_comm_enter), else the synthetic site of MPI function `function_index`
  // (so an uninstrumented program still gets per-MPI-call records). O(1).
  tables::SiteId comm_site(unsigned function_index);

  // Adds to the com record of (site, partner). partner: rank in MPI_COMM_WORLD, or
  // tables::ComRecord::kCollective. O(1), no allocation, thread-safe.
  void record_com(tables::SiteId site, std::int32_t partner, std::uint64_t transmission_ns,
                  std::uint64_t sync_delay_ns, std::uint64_t bytes);

  tables::MonitorCounters& counters();
};

} // namespace vcmon::runtime
