// Process-wide settings from VCMON_* environment variables (table in docs/runtime.md).
#pragma once

#include "core/Log.hpp"

#include "vcmon/tables/Settings.hpp"

#include <cstdint>
#include <string>

namespace vcmon::runtime {

// In the order of VCMON_DEADLOCK's choices.
enum class DeadlockMode { Cycle, NullMessage };
// In the order of VCMON_PROFILE_IO's choices.
enum class ProfileIo { MpiIo, Gather };

consteval std::int64_t default_of(std::string_view name) {
  return tables::setting(name).default_value;
}

// Defaults and ranges are those of tables::kSettings (vcmon/tables/Settings.hpp).
struct Config {
  bool disabled = false;                       // VCMON_DISABLE
  std::string output_dir = ".";                // VCMON_OUTPUT
  std::uint64_t inject_probe_ns = 0;           // VCMON_INJECT_PROBE_NS
  std::int64_t test_clock_offset_ns = 0;       // VCMON_TEST_CLOCK_OFFSET_NS (rank r: r × N)
  std::int64_t test_offset_error_ns = 0;       // VCMON_TEST_OFFSET_ERROR_NS (rank r: r × N)
  bool test_estimate_offsets = false;          // VCMON_TEST_ESTIMATE_OFFSETS
  DeadlockMode deadlock = DeadlockMode::Cycle; // VCMON_DEADLOCK
  std::uint64_t lookahead_ns = default_of("VCMON_LOOKAHEAD_NS"); // null messages
  std::uint64_t deadlock_timeout_ms = default_of("VCMON_DEADLOCK_TIMEOUT_MS");
  std::string wildcard_trace_dir; // VCMON_TRACE_WILDCARD (testing; empty: off)
  std::uint32_t overflow_records = default_of("VCMON_OVERFLOW_RECORDS"); // rounded up to 2^k
  std::uint32_t max_contexts = default_of("VCMON_MAX_CONTEXTS");         // per thread
  std::uint32_t stamp_ring_slots = default_of("VCMON_STAMP_RING");       // 0: stamps as messages
  bool wtime_virtual = false; // VCMON_WTIME=virtual: MPI_Wtime is virtual time
  std::uint64_t throttle_calls = default_of("VCMON_THROTTLE_CALLS"); // 0: never throttle
  std::uint64_t throttle_mean_ns = default_of("VCMON_THROTTLE_NS");
  ProfileIo profile_io = ProfileIo::MpiIo; // VCMON_PROFILE_IO
  LogLevel log_level = LogLevel::Info;     // VCMON_LOG (set at once: set_log_level)

  // Reads the environment. Each invalid value is reported with one line on stderr
  // (`vcmon: VCMON_X=...: expected ...; using default ...`) and replaced by its default;
  // `report_problems` false keeps quiet (ranks other than the first).
  static Config from_environment(bool report_problems);
};

// Before MPI_Init the rank is unknown; the launcher's variables tell whether this process is
// the first one, so that a bad setting is reported once per job, not once per rank.
bool is_first_process();

} // namespace vcmon::runtime
