// A profile's job summary reduced as the runtime reduces it at MPI_Finalize
// (runtime/src/core/ProfileReductions.cpp): each rank's summary sent up a binomial tree towards
// rank 0, encoded and decoded on the way, then the second pass (the other partners) the same:
// the whole job's summary. Reduced by owner, each rank's sums with each partner first go to the
// partner's rank.
#pragma once

#include "vcmon/tables/JobSummary.hpp"
#include "vcmon/tables/Profile.hpp"

#include <vector>

namespace vcmon::tables::testing {

// Each rank's shares of `profile` (SummaryReduction::partner_shares), by the rank they go to.
std::vector<std::vector<PartnerShare>> shares_by_owner(const Profile& profile);

JobSummary reduce_up_a_binomial_tree(const Profile& profile,
                                     PartnerSums partner_sums = PartnerSums::Every);

} // namespace vcmon::tables::testing
