#include "core/Config.hpp"

#include "core/Log.hpp"

#include "vcmon/tables/Settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string_view>

extern char** environ;

namespace vcmon::runtime {
namespace {

using tables::setting;

class EnvironmentReader {
public:
  explicit EnvironmentReader(bool report_problems) : report_problems_(report_problems) {}

  // The variable's value, or nothing when it is unset or empty.
  static std::optional<std::string_view> value_of(std::string_view name) {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr || *value == '\0') {
      return std::nullopt;
    }
    return std::string_view(value);
  }

  void reject(const tables::Setting& setting, std::string_view value) const {
    if (report_problems_) {
      log_line(LogLevel::Warning, "%s", tables::rejection(setting, value).c_str());
    }
  }

  // The setting's value (an Integer's number, a Choice's index) as `Value`, or its default
  // when unset or invalid (said once).
  template <typename Value> Value read(const tables::Setting& setting) const {
    const auto text = value_of(setting.name);
    if (!text) {
      return static_cast<Value>(setting.default_value);
    }
    const std::optional<std::int64_t> parsed = tables::parse_setting(setting, *text);
    if (!parsed) {
      reject(setting, *text);
      return static_cast<Value>(setting.default_value);
    }
    return static_cast<Value>(*parsed);
  }

  // A Directory setting's path when it is set and `usable` accepts it.
  template <typename Usable>
  std::optional<std::string> directory(const tables::Setting& setting, Usable&& usable) const {
    const auto text = value_of(setting.name);
    if (!text) {
      return std::nullopt;
    }
    std::string path(*text);
    if (!usable(path)) {
      reject(setting, *text);
      return std::nullopt;
    }
    return path;
  }

private:
  bool report_problems_;
};

// The directory VCMON_OUTPUT names, made (with its parents) when missing; whether it can be
// written to.
bool make_output_directory(const std::string& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error); // ranks race to make it: any may win
  return tables::writable_directory(path);
}

// `path` from the working directory the program has now, at start-up: the directory was made
// or checked there, and a program that changes its working directory later must not send its
// profile (or lose it) elsewhere.
std::string from_start_directory(const std::string& path) {
  std::error_code error;
  std::string absolute = std::filesystem::absolute(path, error).lexically_normal().string();
  if (error) {
    return path;
  }
  if (absolute.size() > 1 && absolute.back() == '/') {
    absolute.pop_back(); // "/run/." normalises to "/run/"
  }
  return absolute;
}

std::uint32_t round_up_to_power_of_two(std::uint32_t n) {
  std::uint32_t power = 1;
  while (power < n) {
    power <<= 1;
  }
  return power;
}

} // namespace

Config Config::from_environment(bool report_problems) {
  const EnvironmentReader env(report_problems);
  Config config;
  // First, so that VCMON_LOG=error also quiets what the other settings say.
  config.log_level = env.read<LogLevel>(setting("VCMON_LOG"));
  set_log_level(config.log_level);
  if (report_problems) {
    for (const std::string& notice : tables::unknown_variable_notices(environ)) {
      log_line(LogLevel::Warning, "%s", notice.c_str());
    }
  }
  config.disabled = env.read<int>(setting("VCMON_DISABLE")) == 1;
  config.output_dir = from_start_directory(
      env.directory(setting("VCMON_OUTPUT"), make_output_directory).value_or(config.output_dir));
  config.inject_probe_ns = env.read<std::uint64_t>(setting("VCMON_INJECT_PROBE_NS"));
  config.test_clock_offset_ns = env.read<std::int64_t>(setting("VCMON_TEST_CLOCK_OFFSET_NS"));
  config.test_offset_error_ns = env.read<std::int64_t>(setting("VCMON_TEST_OFFSET_ERROR_NS"));
  config.test_estimate_offsets = env.read<int>(setting("VCMON_TEST_ESTIMATE_OFFSETS")) == 1;
  config.deadlock = env.read<DeadlockMode>(setting("VCMON_DEADLOCK"));
  config.lookahead_ns = env.read<std::uint64_t>(setting("VCMON_LOOKAHEAD_NS"));
  config.deadlock_timeout_ms = env.read<std::uint64_t>(setting("VCMON_DEADLOCK_TIMEOUT_MS"));
  if (const auto trace_dir =
          env.directory(setting("VCMON_TRACE_WILDCARD"), tables::writable_directory)) {
    config.wildcard_trace_dir = from_start_directory(*trace_dir);
  }
  config.overflow_records =
      round_up_to_power_of_two(env.read<std::uint32_t>(setting("VCMON_OVERFLOW_RECORDS")));
  config.max_contexts = env.read<std::uint32_t>(setting("VCMON_MAX_CONTEXTS"));
  config.stamp_ring_slots = env.read<std::uint32_t>(setting("VCMON_STAMP_RING"));
  config.throttle_calls = env.read<std::uint64_t>(setting("VCMON_THROTTLE_CALLS"));
  config.throttle_mean_ns = env.read<std::uint64_t>(setting("VCMON_THROTTLE_NS"));
  config.wtime_virtual = env.read<int>(setting("VCMON_WTIME")) == 1;
  config.profile_io = env.read<ProfileIo>(setting("VCMON_PROFILE_IO"));
  return config;
}

bool is_first_process() {
  for (const char* name : {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK"}) {
    if (const char* value = std::getenv(name)) {
      return std::atoi(value) == 0;
    }
  }
  return true;
}

} // namespace vcmon::runtime
