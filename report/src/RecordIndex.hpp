// The dynamic records of the selected ranks, regrouped by site so that the tree of per-site
// records can read one site across all ranks at once and apportion it per rank. Its records
// were checked against the static tables when the job's summary was reduced from them.
#pragma once

#include "vcmon/report/ReportError.hpp"
#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace vcmon::report {

// `--rank R` naming a rank the profile, holding `held` ranks, does not have.
ReportError rank_not_in_profile(std::int32_t rank, std::size_t held);

class RecordIndex {
public:
  // Per selected rank, in rank order.
  struct Activation {
    std::vector<double> time, count, untimed;
  };
  struct Loop {
    std::vector<double> time, count, iterations;
  };
  // One partner of a communication statement, on one rank; points into the profile.
  struct PartnerEntry {
    std::uint32_t rank_index = 0;
    const tables::ComRecord* record = nullptr;
  };
  struct Comm {
    std::vector<double> transmission, sync_delay, count, bytes;
    std::vector<PartnerEntry> entries; // sorted by partner, then rank
    std::uint32_t partners = 0;        // distinct partners
  };

  // Keeps pointers into `profile`, which must outlive the index.
  RecordIndex(const tables::Profile& profile, std::optional<std::int32_t> only_rank);

  const Activation* activation(tables::SiteId proc, tables::SiteId call_site) const;
  // Procedures activated at `call_site`; kNoSite lists those entered from outside the program.
  std::span<const tables::SiteId> callees(tables::SiteId call_site) const;
  const Loop* loop(tables::SiteId loop) const;
  const Comm* comm(tables::SiteId comm) const;
  // Each activation as (proc, call_site), so totals per procedure can be formed.
  std::vector<std::pair<tables::SiteId, tables::SiteId>> activation_keys() const;

private:
  static std::uint64_t key(tables::SiteId proc, tables::SiteId call_site) {
    return (static_cast<std::uint64_t>(proc) << 32) | call_site;
  }
  void add(const tables::RankRecords& records, std::uint32_t index);

  std::size_t ranks_ = 0; // selected
  std::unordered_map<std::uint64_t, Activation> activations_;
  std::unordered_map<tables::SiteId, std::vector<tables::SiteId>> callees_;
  // Indexed by site id; a column is empty when the site has no record.
  std::vector<Loop> loops_;
  std::vector<Comm> comms_;
};

} // namespace vcmon::report
