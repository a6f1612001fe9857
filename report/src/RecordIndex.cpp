#include "RecordIndex.hpp"

#include "vcmon/report/ReportError.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace vcmon::report {
namespace {

using tables::SiteId;
using tables::SiteKind;

// read_profile_file already rejects such records; a live snapshot is assembled in memory and
// reaches the report unchecked, so the index never trusts a site id it is about to use.
void check_site(const tables::ProgramGraph& graph, std::int32_t rank, const char* record,
                SiteId site, SiteKind expected) {
  if (site >= graph.size() || graph.site(site).kind != expected) {
    throw ReportError(fmt::format("rank {}: {} record names site {}, which is not a {} of the "
                                  "program",
                                  rank, record, site, tables::to_string(expected)));
  }
}

std::vector<double>& grown(std::vector<double>& column, std::size_t ranks) {
  column.resize(ranks, 0.0);
  return column;
}

} // namespace

ReportError rank_not_in_profile(std::int32_t rank, std::size_t held) {
  return ReportError(fmt::format("rank {} is not in the profile (it holds {} rank{})", rank, held,
                                 held == 1 ? "" : "s"));
}

RecordIndex::RecordIndex(const tables::Profile& profile, std::optional<std::int32_t> only_rank) {
  world_size_ = std::max<std::int32_t>(profile.meta.ranks, 0);
  for (const auto& records : profile.ranks) {
    world_size_ = std::max(world_size_, records.rank + 1);
    if (!only_rank || *only_rank == records.rank) {
      ranks_.push_back(records.rank);
      records_.push_back(&records);
    }
  }
  if (only_rank && ranks_.empty()) {
    throw rank_not_in_profile(*only_rank, profile.ranks.size());
  }
  loops_.resize(profile.graph.size());
  comms_.resize(profile.graph.size());
  for (std::uint32_t i = 0; i < records_.size(); ++i) {
    add(profile.graph, *records_[i], i);
  }
  for (SiteId site = 0; site < comms_.size(); ++site) {
    auto& entries = comms_[site].entries;
    if (entries.empty()) {
      continue;
    }
    comm_sites_.push_back(site);
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return a.record->partner < b.record->partner;
    });
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (i == 0 || entries[i].record->partner != entries[i - 1].record->partner) {
        ++comms_[site].partners;
      }
    }
  }
  for (auto& [call_site, procs] : callees_) {
    std::sort(procs.begin(), procs.end());
    procs.erase(std::unique(procs.begin(), procs.end()), procs.end());
  }

  auto main_proc = profile.graph.find_main();
  program_time_.resize(ranks_.size());
  const Activation* main_record = main_proc ? activation(*main_proc, tables::kNoSite) : nullptr;
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    const double from_main = main_record ? main_record->time[i] : 0.0;
    program_time_[i] = from_main > 0 ? from_main : static_cast<double>(records_[i]->virtual_ns);
  }
}

void RecordIndex::add(const tables::ProgramGraph& graph, const tables::RankRecords& records,
                      std::uint32_t index) {
  const std::size_t n = ranks_.size();
  for (const auto& proc : records.procs) {
    check_site(graph, records.rank, "proc", proc.proc, SiteKind::Procedure);
    if (proc.call_site != tables::kNoSite) {
      check_site(graph, records.rank, "proc record's call", proc.call_site, SiteKind::Call);
    }
    auto& column = activations_[key(proc.proc, proc.call_site)];
    grown(column.time, n)[index] += static_cast<double>(proc.time_ns);
    grown(column.count, n)[index] += static_cast<double>(proc.count);
    grown(column.untimed, n)[index] += static_cast<double>(proc.untimed);
    callees_[proc.call_site].push_back(proc.proc);
  }
  for (const auto& loop : records.loops) {
    check_site(graph, records.rank, "loop", loop.loop, SiteKind::Loop);
    auto& column = loops_[loop.loop];
    grown(column.time, n)[index] += static_cast<double>(loop.time_ns);
    grown(column.count, n)[index] += static_cast<double>(loop.count);
    grown(column.iterations, n)[index] += static_cast<double>(loop.iterations);
  }
  for (const auto& com : records.coms) {
    check_site(graph, records.rank, "com", com.comm, SiteKind::Comm);
    if (com.partner != tables::ComRecord::kCollective &&
        (com.partner < 0 || com.partner >= world_size_)) {
      throw ReportError(fmt::format("rank {}: com record of site {} names partner {}, outside "
                                    "the run's {} ranks",
                                    records.rank, com.comm, com.partner, world_size_));
    }
    auto& column = comms_[com.comm];
    grown(column.transmission, n)[index] += static_cast<double>(com.transmission_ns);
    grown(column.sync_delay, n)[index] += static_cast<double>(com.sync_delay_ns);
    grown(column.count, n)[index] += static_cast<double>(com.count);
    grown(column.bytes, n)[index] += static_cast<double>(com.bytes);
    column.entries.push_back({index, &com});
  }
}

const RecordIndex::Activation* RecordIndex::activation(SiteId proc, SiteId call_site) const {
  const auto found = activations_.find(key(proc, call_site));
  return found == activations_.end() ? nullptr : &found->second;
}

std::span<const SiteId> RecordIndex::callees(SiteId call_site) const {
  const auto found = callees_.find(call_site);
  if (found == callees_.end()) {
    return {};
  }
  return found->second;
}

const RecordIndex::Loop* RecordIndex::loop(SiteId loop) const {
  return loop < loops_.size() && !loops_[loop].time.empty() ? &loops_[loop] : nullptr;
}

const RecordIndex::Comm* RecordIndex::comm(SiteId comm) const {
  return comm < comms_.size() && !comms_[comm].entries.empty() ? &comms_[comm] : nullptr;
}

std::vector<std::pair<SiteId, SiteId>> RecordIndex::activation_keys() const {
  std::vector<std::pair<SiteId, SiteId>> keys;
  keys.reserve(activations_.size());
  for (const auto& [packed, column] : activations_) {
    keys.emplace_back(static_cast<SiteId>(packed >> 32), static_cast<SiteId>(packed));
  }
  return keys;
}

} // namespace vcmon::report
