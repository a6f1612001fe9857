#include "query/PublishPeriod.hpp"
#include "core/Log.hpp"

#include "vcmon/tables/Settings.hpp"

#include <cstdlib>

namespace vcmon::runtime::query {

std::chrono::milliseconds publish_period(bool report_problems) {
  constexpr const tables::Setting& kSetting = tables::setting("VCMON_PUBLISH_MS");
  const char* value = std::getenv(kSetting.name.data());
  if (value == nullptr || *value == '\0') {
    return kDefaultPublishPeriod;
  }
  const std::optional<std::int64_t> ms = tables::parse_setting(kSetting, value);
  if (!ms) {
    if (report_problems) {
      log_line(LogLevel::Warning, "%s", tables::rejection(kSetting, value).c_str());
    }
    return kDefaultPublishPeriod;
  }
  return std::chrono::milliseconds(*ms);
}

} // namespace vcmon::runtime::query
