// The per-process monitor: what the PMPI layer (runtime/src/mpi/) needs from the core
// (probes, records, virtual clock, profile). Internal to libvcmon.
#pragma once

#include "core/Config.hpp"
#include "core/LayerCounters.hpp"
#include "core/OverflowRecords.hpp"
#include "core/ProbeCore.hpp"
#include "core/SiteRegistry.hpp"
#include "core/ThisThread.hpp"
#include "core/ThreadRecords.hpp"
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/Records.hpp"
#include "vcmon/tables/Site.hpp"
#include "vcmon/vclock/Moment.hpp"
#include "vcmon/vclock/VirtualClock.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vcmon::runtime {

struct CollectedRecords;

// Hidden: calls inside libvcmon bind directly, never through the PLT.
class __attribute__((visibility("hidden"))) Monitor {
public:
  // The one instance; constructed on first use (before main if a unit registers first) and
  // never destroyed, so probes running during exit stay safe. Inline: every probe asks.
  static Monitor& instance() {
    if (Monitor* monitor = instance_.load(std::memory_order_acquire)) [[likely]] {
      return *monitor;
    }
    return construct_instance();
  }

  // False when VCMON_DISABLE=1, or once turned off: the PMPI layer then passes every call
  // straight through, probes return at once and no profile is written.
  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  const Config& config() const { return config_; }
  // Settings the ranks must share, as they agreed on them after PMPI_Init and before the layer
  // starts (mpi/layer/JobSettings.hpp): `monitored` false turns the monitor off for good.
  void adopt_job_settings(bool monitored, DeadlockMode deadlock, ProfileIo profile_io);
  vclock::VirtualClock& clock() { return clock_; }

  // Constant charged per monitor action for what cannot be measured from inside.
  std::uint64_t action_cost_ns() const { return action_cost_ns_; }

  // --- PMPI layer hooks -------------------------------------------------------------
  // After PMPI_Init: learns rank, size and host, and applies VCMON_TEST_CLOCK_OFFSET_NS
  // (rank r's clock reads r × N ns more); the PMPI layer then measures the clock offset to
  // rank 0 and reports it with set_clock_offset.
  void on_mpi_init(int world_rank, int world_size);
  // offset_ns = this rank's clock − the common time base at the same instant (rank 0's clock,
  // moved back to the earliest rank's start). Recorded in the profile and removed from this
  // rank's clock, so that from then on real_ns()/virtual_ns() of all ranks share the base
  // (stamps need no further correction).
  void set_clock_offset(std::int64_t offset_ns);
  // Before PMPI_Finalize: the ranks write the profile together (collective).
  void on_mpi_finalize();
  // Before PMPI_Abort: writes this rank's records as a partial profile (no collective: the
  // other ranks may be anywhere). `reason` ends up in RunMetadata::partial_reason.
  void on_abort(std::string_view reason);

  // The communication site an MPI call is charged to: the comm statement this thread is
  // inside (vcmon_comm_enter), else the synthetic site of MPI function `function_index`
  // (so an uninstrumented program still gets per-MPI-call records). O(1).
  tables::SiteId comm_site(unsigned function_index);

  // Adds to the com record of (site, partner). partner: rank in MPI_COMM_WORLD, or
  // tables::ComRecord::kCollective. `message`: the operation moved `bytes` of data (false: a
  // completion call's waiting, MPI_Init's own time). O(1), no allocation, thread-safe.
  void record_com(tables::SiteId site, std::int32_t partner, std::uint64_t transmission_ns,
                  std::uint64_t sync_delay_ns, std::uint64_t bytes, bool message = true);
  // The same in two steps: the record first (e.g. while a receive's data is still arriving),
  // in the calling context open now, the values once known. An empty reference records nothing.
  ProbeCore::ComRecordRef com_record(tables::SiteId site, std::int32_t partner);
  // The calling context a communication of `site` adds to now (StatementContext).
  StatementContext statement_context(tables::SiteId site);
  // The record of (site, partner) for a statement that closed: in `opened`, its context taken
  // while it ran, when this thread took it; else in no context (the site's record only).
  ProbeCore::ComRecordRef com_record(tables::SiteId site, std::int32_t partner,
                                     const StatementContext& opened);
  static void add_com(const ProbeCore::ComRecordRef& record, std::uint64_t transmission_ns,
                      std::uint64_t sync_delay_ns, std::uint64_t bytes) {
    ProbeCore::add_com(record, transmission_ns, sync_delay_ns, bytes);
  }

  LayerCounters& counters() { return counters_; }

  // --- core ---------------------------------------------------------------------------
  std::int32_t world_rank() const { return world_rank_; }
  std::int32_t world_size() const { return world_size_; }
  SiteRegistry& registry() { return registry_; }
  ProbeCore& probes() { return probes_; }
  const ProbeCosts& probe_costs() const { return probes_.costs(); }
  // Adds to the calibrated probe costs what the probe ABI's calls cost around the probe logic
  // (once the instance exists: the ABI reaches the monitor through it).
  void add_dispatch_cost();
  const vclock::ClockSource& clock_source() const { return source_; }
  // The clock's source, to adopt another process's rate (mpi/clock/ClockOffset.hpp).
  vclock::ClockSource& clock_source() { return source_; }
  ThreadRecordsList& thread_records_list() { return threads_; }
  // The calling thread's stack and records (attached on its first probe).
  ThreadState& this_thread() {
    ThreadState* state = this_thread_state;
    if (state == nullptr) [[unlikely]] {
      state = attach_thread();
    }
    return *state;
  }
  // Writes what this rank had at moment `at` as a partial profile, once per process; safe to
  // call from exit handlers and the signal helper thread.
  void write_partial_profile(std::string_view reason, vclock::Moment at);
  // At exit: a partial profile when MPI was initialised and not finalised, the whole profile
  // of a program that never used MPI.
  void on_exit();

  // --- query interface (runtime/src/query/) -------------------------------------------
  // This rank's records so far, quietly (no stderr) and before MPI_Pcontrol's exclusions.
  // `settle_this_thread` first counts the calling thread's open activations up to now; only
  // a thread asking for itself may do that (it moves its own frames).
  tables::RankRecords local_rank_records(bool settle_this_thread);
  // A profile of `ranks` with this run's metadata and program graph.
  tables::Profile profile_of(std::vector<tables::RankRecords> ranks, std::int32_t rank_count) const;
  // Writes a profile of every rank's records now (collective): MPI_Pcontrol 3, 4.
  void write_profile_now();
  std::int64_t start_unix_ns() const { return start_unix_ns_; }

private:
  Monitor();
  static Monitor& construct_instance();
  static inline std::atomic<Monitor*> instance_{nullptr};
  ThreadState* attach_thread();
  // Every later clock reading is `delta_ns` more (VirtualClock::advance), and the calling
  // thread's open activations move with it.
  void shift_time_base(std::int64_t delta_ns);
  // This rank's records at moment `at`; synthetic comm sites numbered after the registered
  // sites. The calling thread's open activations count up to that moment. A caller inside an
  // intrusion scope passes the scope's start: the scope's work (stopping the publisher, the
  // writing itself) is the monitor's, not main's.
  tables::RankRecords collect_rank_records(vclock::Moment at);
  // The records summed over threads, with this rank's totals at `at` filled in.
  CollectedRecords collect_with_totals(bool settle_this_thread, vclock::Moment at);
  // Every rank writes its records at `at` into one profile, rank 0 the head and the rank
  // index (collective; CollectiveProfileWriter.hpp).
  void write_job_profile(bool final_profile, vclock::Moment at);
  // Writes a profile of `ranks` (a partial one when `partial_reason` is not empty; its name
  // ends in `suffix`, see write_profile) and prints its line on stderr.
  void write_profile_of(std::vector<tables::RankRecords> ranks, std::int32_t rank_count,
                        std::string_view partial_reason, std::string_view suffix = {});

  Config config_;
  std::atomic<bool> enabled_{!config_.disabled};
  vclock::ClockSource source_;
  vclock::VirtualClock clock_;
  SiteRegistry registry_;
  OverflowRecords overflow_;
  ThreadRecordsList threads_;
  ProbeCore probes_;
  LayerCounters counters_;
  std::uint64_t action_cost_ns_ = 0;
  std::int64_t start_unix_ns_ = 0;
  long process_id_ = 0; // the process the monitor started in
  std::int32_t world_rank_ = 0;
  std::int32_t world_size_ = 1;
  std::int64_t clock_offset_ns_ = 0;
  std::atomic<bool> mpi_initialized_{false};
  std::atomic<bool> mpi_finalized_{false};
  std::atomic<bool> profile_written_{false};
  unsigned snapshots_written_ = 0; // MPI_Pcontrol(3): profiles named -snapshot-N, on rank 0
};

} // namespace vcmon::runtime
