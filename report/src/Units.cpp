#include "Units.hpp"

#include "vcmon/tables/Records.hpp"

#include <array>
#include <cmath>
#include <ctime>
#include <fmt/format.h>

namespace vcmon::report {

std::string format_duration(double ns) {
  static constexpr std::array<std::pair<double, const char*>, 4> units{
      {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1.0, "ns"}}};
  for (const auto& [scale, unit] : units) {
    if (std::abs(ns) >= scale) {
      return scale == 1.0 ? fmt::format("{:.0f} ns", ns)
                          : fmt::format("{:.2f} {}", ns / scale, unit);
    }
  }
  return "0 ns";
}

std::string format_bytes(double bytes) {
  static constexpr std::array<std::pair<double, const char*>, 3> units{
      {{1024.0 * 1024 * 1024, "GiB"}, {1024.0 * 1024, "MiB"}, {1024.0, "KiB"}}};
  for (const auto& [scale, unit] : units) {
    if (bytes >= scale) {
      return fmt::format("{:.2f} {}", bytes / scale, unit);
    }
  }
  return fmt::format("{:.0f} B", bytes);
}

std::string format_size_class(std::size_t size_class) {
  static constexpr std::array<const char*, tables::kSizeClasses> labels{
      "0 B",      "1-16 B",       "16-256 B", "256 B-4 KiB",
      "4-64 KiB", "64 KiB-1 MiB", "1-16 MiB", "16 MiB+"};
  return size_class < labels.size() ? labels[size_class] : "?";
}

std::string format_count(double count) {
  return fmt::format("{:.0f}", std::round(count));
}

std::string format_utc(std::int64_t unix_ns) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ns / 1'000'000'000);
  std::tm tm{};
  if (unix_ns <= 0 || gmtime_r(&seconds, &tm) == nullptr) {
    return "unknown";
  }
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%d %H:%M:%S UTC", &tm);
  return text.data();
}

} // namespace vcmon::report
