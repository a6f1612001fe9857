// A communication statement summed over every context it ran in: where the time went between
// moving data and waiting for the partner.
#pragma once

#include "vcmon/report/RankStats.hpp"
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

  // The mean message size: a com record holds a message count and a byte sum, so this is
  // exact, while the smallest and largest message are not recorded.
  double mean_bytes() const { return count > 0 ? static_cast<double>(bytes) / count : 0; }
};

} // namespace vcmon::report
