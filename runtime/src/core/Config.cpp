#include "core/Config.hpp"

#include "core/Log.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace vcmon::runtime {
namespace {

class EnvironmentReader {
public:
  explicit EnvironmentReader(bool report_problems) : report_problems_(report_problems) {}

  // The variable's value, or nothing when it is unset or empty.
  static std::optional<std::string_view> value_of(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
      return std::nullopt;
    }
    return std::string_view(value);
  }

  void reject(const char* name, std::string_view value, const char* expected,
              const std::string& fallback) const {
    if (report_problems_) {
      log_line(LogLevel::Warning, "%s=%.*s: expected %s; using default %s", name,
               static_cast<int>(value.size()), value.data(), expected, fallback.c_str());
    }
  }

  template <typename Integer>
  Integer integer(const char* name, Integer fallback, Integer min, Integer max,
                  const char* expected) const {
    const auto value = value_of(name);
    if (!value) {
      return fallback;
    }
    Integer parsed{};
    const auto [end, error] = std::from_chars(value->data(), value->data() + value->size(), parsed);
    if (error != std::errc() || end != value->data() + value->size() || parsed < min ||
        parsed > max) {
      reject(name, *value, expected, std::to_string(fallback));
      return fallback;
    }
    return parsed;
  }

private:
  bool report_problems_;
};

// Every VCMON_* variable the runtime reads (its own and VCMON_LOG, VCMON_PUBLISH_MS read by
// their modules), so that a misspelt one is said rather than silently ignored.
constexpr std::string_view kKnownVariables[] = {"VCMON_DISABLE",
                                                "VCMON_OUTPUT",
                                                "VCMON_INJECT_PROBE_NS",
                                                "VCMON_TEST_CLOCK_OFFSET_NS",
                                                "VCMON_DEADLOCK",
                                                "VCMON_LOOKAHEAD_NS",
                                                "VCMON_DEADLOCK_TIMEOUT_MS",
                                                "VCMON_TRACE_WILDCARD",
                                                "VCMON_OVERFLOW_RECORDS",
                                                "VCMON_STAMP_RING",
                                                "VCMON_THROTTLE_CALLS",
                                                "VCMON_THROTTLE_NS",
                                                "VCMON_WTIME",
                                                "VCMON_LOG",
                                                "VCMON_PUBLISH_MS"};

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// One line for each VCMON_* variable in the environment that the runtime does not read,
// naming the closest one it does.
void warn_about_unknown_variables() {
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view variable(*entry);
    const std::string_view name = variable.substr(0, variable.find('='));
    if (!name.starts_with("VCMON_") ||
        std::ranges::find(kKnownVariables, name) != std::end(kKnownVariables)) {
      continue;
    }
    const auto closest = std::ranges::min_element(
        kKnownVariables, {}, [&](std::string_view known) { return edit_distance(name, known); });
    log_line(LogLevel::Warning, "%.*s is not a vcmon setting; ignored (did you mean %.*s?)",
             static_cast<int>(name.size()), name.data(), static_cast<int>(closest->size()),
             closest->data());
  }
}

bool is_writable_directory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
         ::access(path.c_str(), W_OK | X_OK) == 0;
}

// The directory VCMON_OUTPUT names, made (with its parents) when missing; whether it can be
// written to.
bool make_output_directory(const std::string& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error); // ranks race to make it: any may win
  return is_writable_directory(path);
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
  if (const auto value = EnvironmentReader::value_of("VCMON_LOG")) {
    constexpr std::string_view kLevels[] = {"error", "warning", "info", "debug"};
    const auto* level = std::ranges::find(kLevels, *value);
    if (level != std::end(kLevels)) {
      config.log_level = static_cast<LogLevel>(level - std::begin(kLevels));
    } else {
      env.reject("VCMON_LOG", *value, "error, warning, info or debug", "info");
    }
  }
  set_log_level(config.log_level);
  if (report_problems) {
    warn_about_unknown_variables();
  }

  if (const auto value = EnvironmentReader::value_of("VCMON_DISABLE")) {
    if (*value == "1") {
      config.disabled = true;
    } else if (*value != "0") {
      env.reject("VCMON_DISABLE", *value, "0 or 1", "0");
    }
  }
  if (const auto value = EnvironmentReader::value_of("VCMON_OUTPUT")) {
    if (make_output_directory(std::string(*value))) {
      config.output_dir = std::string(*value);
    } else {
      env.reject("VCMON_OUTPUT", *value, "a writable directory", "(the working directory)");
    }
  }
  // Up to one second per probe: larger values are typing mistakes, not experiments.
  config.inject_probe_ns = env.integer<std::uint64_t>("VCMON_INJECT_PROBE_NS", 0, 0, 1'000'000'000,
                                                      "nanoseconds from 0 to 1000000000");
  config.test_clock_offset_ns = env.integer<std::int64_t>(
      "VCMON_TEST_CLOCK_OFFSET_NS", 0, -3'600'000'000'000, 3'600'000'000'000,
      "nanoseconds from -3600000000000 to 3600000000000");
  if (const auto value = EnvironmentReader::value_of("VCMON_DEADLOCK")) {
    if (*value == "nullmsg") {
      config.deadlock = DeadlockMode::NullMessage;
    } else if (*value != "cycle") {
      env.reject("VCMON_DEADLOCK", *value, "cycle or nullmsg", "cycle");
    }
  }
  config.lookahead_ns =
      env.integer<std::uint64_t>("VCMON_LOOKAHEAD_NS", config.lookahead_ns, 1, 1'000'000'000,
                                 "nanoseconds from 1 to 1000000000");
  config.deadlock_timeout_ms =
      env.integer<std::uint64_t>("VCMON_DEADLOCK_TIMEOUT_MS", config.deadlock_timeout_ms, 10,
                                 3'600'000, "milliseconds from 10 to 3600000");
  if (const auto value = EnvironmentReader::value_of("VCMON_TRACE_WILDCARD")) {
    if (is_writable_directory(std::string(*value))) {
      config.wildcard_trace_dir = std::string(*value);
    } else {
      env.reject("VCMON_TRACE_WILDCARD", *value, "a writable directory", "(no trace)");
    }
  }
  config.overflow_records = round_up_to_power_of_two(
      env.integer<std::uint32_t>("VCMON_OVERFLOW_RECORDS", config.overflow_records, 64, 1u << 24,
                                 "a record count from 64 to 16777216"));
  config.stamp_ring_slots = env.integer<std::uint32_t>("VCMON_STAMP_RING", config.stamp_ring_slots,
                                                       0, 65536, "a slot count from 0 to 65536");
  config.throttle_calls =
      env.integer<std::uint64_t>("VCMON_THROTTLE_CALLS", config.throttle_calls, 0, 1'000'000'000,
                                 "an activation count from 0 (never) to 1000000000");
  config.throttle_mean_ns =
      env.integer<std::uint64_t>("VCMON_THROTTLE_NS", config.throttle_mean_ns, 1, 1'000'000'000,
                                 "nanoseconds from 1 to 1000000000");
  if (const auto value = EnvironmentReader::value_of("VCMON_WTIME")) {
    if (*value == "virtual") {
      config.wtime_virtual = true;
    } else if (*value != "real") {
      env.reject("VCMON_WTIME", *value, "real or virtual", "real");
    }
  }
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
