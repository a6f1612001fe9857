#include "RecordIndex.hpp"

#include "vcmon/report/ReportError.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace vcmon::report {
namespace {

using tables::SiteId;

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
  std::vector<const tables::RankRecords*> selected;
  for (const auto& records : profile.ranks) {
    if (!only_rank || *only_rank == records.rank) {
      selected.push_back(&records);
    }
  }
  ranks_ = selected.size();
  loops_.resize(profile.graph.size());
  comms_.resize(profile.graph.size());
  for (std::uint32_t i = 0; i < selected.size(); ++i) {
    add(*selected[i], i);
  }
  for (auto& comm : comms_) {
    auto& entries = comm.entries;
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return a.record->partner < b.record->partner;
    });
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (i == 0 || entries[i].record->partner != entries[i - 1].record->partner) {
        ++comm.partners;
      }
    }
  }
  for (auto& [call_site, procs] : callees_) {
    std::sort(procs.begin(), procs.end());
    procs.erase(std::unique(procs.begin(), procs.end()), procs.end());
  }
}

void RecordIndex::add(const tables::RankRecords& records, std::uint32_t index) {
  const std::size_t n = ranks_;
  for (const auto& proc : records.procs) {
    auto& column = activations_[key(proc.proc, proc.call_site)];
    grown(column.time, n)[index] += static_cast<double>(proc.time_ns);
    grown(column.count, n)[index] += static_cast<double>(proc.count);
    grown(column.untimed, n)[index] += static_cast<double>(proc.untimed);
    callees_[proc.call_site].push_back(proc.proc);
  }
  for (const auto& loop : records.loops) {
    auto& column = loops_[loop.loop];
    grown(column.time, n)[index] += static_cast<double>(loop.time_ns);
    grown(column.count, n)[index] += static_cast<double>(loop.count);
    grown(column.iterations, n)[index] += static_cast<double>(loop.iterations);
  }
  for (const auto& com : records.coms) {
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
