// A communication statement summed over every context it ran in: where the time went between
// moving data and waiting for the partner.
#pragma once

#include "vcmon/report/RankStats.hpp"
#include "vcmon/tables/Records.hpp"
#include "vcmon/tables/Site.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace vcmon::report {

struct CommStatement {
  tables::SiteId site = tables::kNoSite;
  std::string name; // the MPI function
  tables::SourcePos pos;
  RankStats time; // transmission + synchronisation delay, per rank
  std::uint64_t transmission_ns = 0;
  std::uint64_t sync_delay_ns = 0;
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  std::uint32_t partners = 0; // distinct partners (collective counts as one)
  double percent = 0;         // of the program's total time
  // Of the count, the operations that moved data, by size class (tables::size_class), with
  // the smallest and the largest; none in a profile older than format 3 (sizes_recorded()).
  std::uint64_t messages = 0;
  std::uint64_t min_bytes = 0;
  std::uint64_t max_bytes = 0;
  std::array<std::uint64_t, tables::kSizeClasses> size_classes{};

  bool sizes_recorded() const { return messages > 0; }
  // The mean message size, exact: bytes over the messages (over the count in an old profile).
  double mean_bytes() const {
    const std::uint64_t n = sizes_recorded() ? messages : count;
    return n > 0 ? static_cast<double>(bytes) / static_cast<double>(n) : 0;
  }
};

} // namespace vcmon::report
