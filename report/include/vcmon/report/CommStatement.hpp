// A communication statement summed over every context it ran in: where the time went between
// moving data and waiting for the partner.
#pragma once

#include "vcmon/report/RankStats.hpp"
#include "vcmon/tables/Records.hpp"
#include "vcmon/tables/Site.hpp"

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
  // Of the count, the operations that moved data; none in a profile older than format 3
  // (sizes_recorded()).
  tables::MessageSizes sizes{};

  bool sizes_recorded() const { return sizes.messages() > 0; }
  // The mean message size, exact: bytes over the messages (over the count in an old profile).
  double mean_bytes() const {
    const std::uint64_t n = sizes_recorded() ? sizes.messages() : count;
    return n > 0 ? static_cast<double>(bytes) / static_cast<double>(n) : 0;
  }
};

} // namespace vcmon::report
