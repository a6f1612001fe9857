#include "query/PublishPeriod.hpp"
#include "core/Log.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace vcmon::runtime::query {

std::chrono::milliseconds publish_period(bool report_problems) {
  constexpr unsigned kMaxMs = 3'600'000;
  const char* value = std::getenv("VCMON_PUBLISH_MS");
  if (value == nullptr || *value == '\0') {
    return kDefaultPublishPeriod;
  }
  const std::string_view text(value);
  unsigned ms = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), ms);
  if (error != std::errc() || end != text.data() + text.size() || ms > kMaxMs) {
    if (report_problems) {
      log_line(LogLevel::Warning,
               "VCMON_PUBLISH_MS=%s: expected milliseconds from 0 to %u; using "
               "default %lld",
               value, kMaxMs, static_cast<long long>(kDefaultPublishPeriod.count()));
    }
    return kDefaultPublishPeriod;
  }
  return std::chrono::milliseconds(ms);
}

} // namespace vcmon::runtime::query
