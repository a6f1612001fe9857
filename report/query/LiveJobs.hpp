// The running jobs of this user on this node, found through their live segments, and a job's
// segments assembled into one profile for the report renderers.
#pragma once

#include "vcmon/tables/LiveSegment.hpp"
#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vcmon::query {

struct LiveJobSummary {
  std::uint64_t job = 0;
  std::int32_t ranks = 0;     // the job's size
  std::int32_t published = 0; // ranks publishing on this node
  std::string program;
  std::int64_t start_unix_ns = 0;
};

// One line per problem segment goes to `problems` (foreign or corrupt ones are skipped).
std::vector<LiveJobSummary> list_jobs(std::uint32_t uid, std::vector<std::string>& problems);

struct LiveProfile {
  tables::Profile profile;
  std::int32_t published = 0;             // ranks read on this node
  std::int64_t oldest_publication_ns = 0; // unix time of the least recent segment
};

// Reads every segment of `job`; throws tables::LiveSegmentError (one line) when the job has no
// segment here or one of them cannot be read or decoded.
LiveProfile read_job(std::uint32_t uid, std::uint64_t job);

} // namespace vcmon::query
