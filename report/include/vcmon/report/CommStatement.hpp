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
};

} // namespace vcmon::report
