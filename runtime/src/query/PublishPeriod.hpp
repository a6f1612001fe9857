// VCMON_PUBLISH_MS: how often a rank refreshes its live segment (docs/query.md).
#pragma once

#include "vcmon/tables/Settings.hpp"

#include <chrono>

namespace vcmon::runtime::query {

inline constexpr std::chrono::milliseconds kDefaultPublishPeriod{
    tables::setting("VCMON_PUBLISH_MS").default_value};

// The period from the environment; zero disables publication. An invalid value is reported
// with one line on stderr when `report_problems`, and replaced by the default.
std::chrono::milliseconds publish_period(bool report_problems);

} // namespace vcmon::runtime::query
