#include "LiveJobs.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace vcmon::query {

std::vector<LiveJobSummary> list_jobs(std::uint32_t uid, std::vector<std::string>& problems) {
  std::map<std::uint64_t, LiveJobSummary> jobs;
  for (const std::string& name : tables::list_live_segments(uid)) {
    try {
      const tables::LiveSnapshot segment = tables::read_live_segment(name);
      LiveJobSummary& job = jobs[segment.identity.key.job];
      job.job = segment.identity.key.job;
      job.ranks = segment.identity.ranks;
      job.program = segment.identity.program;
      job.start_unix_ns = job.published == 0
                              ? segment.identity.start_unix_ns
                              : std::min(job.start_unix_ns, segment.identity.start_unix_ns);
      ++job.published;
    } catch (const tables::LiveSegmentError& error) {
      problems.emplace_back(error.what());
    }
  }
  std::vector<LiveJobSummary> out;
  for (const auto& [id, job] : jobs) {
    out.push_back(job);
  }
  return out;
}

LiveProfile read_job(std::uint32_t uid, std::uint64_t job) {
  std::vector<tables::LiveSnapshot> segments;
  for (const std::string& name : tables::list_live_segments(uid)) {
    const auto key = tables::parse_live_segment_name(name);
    if (key && key->job == job) {
      segments.push_back(tables::read_live_segment(name));
    }
  }
  if (segments.empty()) {
    throw tables::LiveSegmentError("no running job " + std::to_string(job) +
                                   " of this user on this node (vcmon-query lists them)");
  }
  std::sort(segments.begin(), segments.end(),
            [](const auto& a, const auto& b) { return a.identity.key.rank < b.identity.key.rank; });
  LiveProfile live;
  try {
    live.profile = tables::decode_profile(segments.front().tables);
  } catch (const tables::ProfileError& error) {
    throw tables::LiveSegmentError("segment " + segments.front().name +
                                   " is corrupt: " + error.what());
  }
  live.oldest_publication_ns = segments.front().published_unix_ns;
  for (const tables::LiveSnapshot& segment : segments) {
    try {
      live.profile.ranks.push_back(tables::decode_rank_records(segment.records));
    } catch (const tables::ProfileError& error) {
      throw tables::LiveSegmentError("segment " + segment.name + " is corrupt: " + error.what());
    }
    live.oldest_publication_ns = std::min(live.oldest_publication_ns, segment.published_unix_ns);
    // The graph was published at start: the run so far ends at the latest publication.
    live.profile.meta.end_unix_ns =
        std::max(live.profile.meta.end_unix_ns, segment.published_unix_ns);
    ++live.published;
  }
  std::set<std::string> hosts;
  for (const tables::RankRecords& r : live.profile.ranks) {
    hosts.insert(r.host);
  }
  live.profile.meta.hosts.assign(hosts.begin(), hosts.end());
  // The records must fit the graph published with them (one check for every rank).
  try {
    live.profile = tables::decode_profile(tables::encode_profile(live.profile));
  } catch (const std::exception& error) {
    throw tables::LiveSegmentError("job " + std::to_string(job) +
                                   ": the segments do not agree: " + error.what());
  }
  return live;
}

} // namespace vcmon::query
