// The dynamic records of the selected ranks, regrouped by site so the tree can read one site
// across all ranks at once. Checks every record against the static tables.
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
  // Per selected rank, in the order of ranks().
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

  // Throws ReportError when `only_rank` is not in the profile or a record contradicts the
  // static tables. Keeps pointers into `profile`, which must outlive the index.
  RecordIndex(const tables::Profile& profile, std::optional<std::int32_t> only_rank);

  std::span<const std::int32_t> ranks() const { return ranks_; }
  std::span<const tables::RankRecords* const> rank_records() const { return records_; }
  // The matrix is this many ranks wide: the run's size, or more if records name more.
  std::int32_t world_size() const { return world_size_; }

  const Activation* activation(tables::SiteId proc, tables::SiteId call_site) const;
  // Procedures activated at `call_site`; kNoSite lists those entered from outside the program.
  std::span<const tables::SiteId> callees(tables::SiteId call_site) const;
  const Loop* loop(tables::SiteId loop) const;
  const Comm* comm(tables::SiteId comm) const;
  // Communication statements with records, in site order.
  std::span<const tables::SiteId> comm_sites() const { return comm_sites_; }
  // Each activation as (proc, call_site), so totals per procedure can be formed.
  std::vector<std::pair<tables::SiteId, tables::SiteId>> activation_keys() const;

  // Per rank: the proc record of main, or the rank's virtual time when main has none.
  const std::vector<double>& program_time() const { return program_time_; }

private:
  static std::uint64_t key(tables::SiteId proc, tables::SiteId call_site) {
    return (static_cast<std::uint64_t>(proc) << 32) | call_site;
  }
  void add(const tables::ProgramGraph& graph, const tables::RankRecords& records,
           std::uint32_t index);

  std::vector<std::int32_t> ranks_;
  std::vector<const tables::RankRecords*> records_;
  std::int32_t world_size_ = 0;
  std::unordered_map<std::uint64_t, Activation> activations_;
  std::unordered_map<tables::SiteId, std::vector<tables::SiteId>> callees_;
  // Indexed by site id; a column is empty when the site has no record.
  std::vector<Loop> loops_;
  std::vector<Comm> comms_;
  std::vector<tables::SiteId> comm_sites_;
  std::vector<double> program_time_;
};

} // namespace vcmon::report
