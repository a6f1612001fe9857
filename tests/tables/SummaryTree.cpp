#include "SummaryTree.hpp"

#include <iterator>
#include <stdexcept>

namespace vcmon::tables::testing {
namespace {

// In step k the rank 2^k above each rank whose lower k + 1 bits are clear sends it its summary.
void reduce(std::vector<SummaryReduction>& partials) {
  const auto size = static_cast<std::int32_t>(partials.size());
  for (std::int32_t step = 1; step < size; step <<= 1) {
    for (std::int32_t rank = 0; rank + step < size; rank += 2 * step) {
      // As the runtime does: the sender is done with its partial and sends it in pieces (here
      // small ones, so that statements of many partners come whole in a piece of their own),
      // the receiver absorbs each piece's bytes as it reads them.
      for (const JobSummary& piece :
           job_summary_pieces(std::move(partials[rank + step]).summary(), 7)) {
        partials[rank].absorb_encoded(encode_job_summary(piece));
      }
    }
  }
}

} // namespace

std::vector<std::vector<PartnerShare>> shares_by_owner(const Profile& profile) {
  std::vector<std::vector<PartnerShare>> owned(profile.ranks.size());
  for (const RankRecords& r : profile.ranks) {
    for (const PartnerShare& share : SummaryReduction::partner_shares(r)) {
      owned.at(static_cast<std::size_t>(share.partner)).push_back(share);
    }
  }
  return owned;
}

JobSummary reduce_up_a_binomial_tree(const Profile& profile, PartnerSums partner_sums) {
  const auto size = static_cast<std::int32_t>(profile.ranks.size());
  std::vector<SummaryReduction> first;
  for (const RankRecords& r : profile.ranks) {
    if (const auto problem = first.emplace_back(profile.graph, size, partner_sums).add_rank(r)) {
      throw std::invalid_argument(*problem);
    }
  }
  if (partner_sums == PartnerSums::ByOwner) {
    const auto owned = shares_by_owner(profile);
    for (std::int32_t rank = 0; rank < size; ++rank) {
      if (const auto problem = first[rank].add_partner_shares(rank, owned[rank])) {
        throw std::invalid_argument(*problem);
      }
    }
  }
  reduce(first);
  if (first.empty()) {
    return {};
  }
  const auto needed = first.front().other_partners_needed();
  // Rank 0's second pass goes into its first's; the others' into reductions of their own.
  std::vector<SummaryReduction> second;
  second.push_back(std::move(first.front()));
  for (std::int32_t rank = 1; rank < size; ++rank) {
    second.emplace_back(profile.graph, size);
  }
  for (std::int32_t rank = 0; rank < size; ++rank) {
    second[rank].begin_other_partners(needed);
    second[rank].add_other_partners(profile.ranks[static_cast<std::size_t>(rank)]);
  }
  reduce(second);
  return second.front().whole_job();
}

} // namespace vcmon::tables::testing
