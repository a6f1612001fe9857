// What makes a profile self-consistent: ranks sorted and within the run, every record naming
// a site of the right kind, every partner a rank of the run. The encoder refuses and the
// decoder rejects profiles that are not.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <optional>
#include <string>

namespace vcmon::tables::detail {

// The first inconsistency found, or nothing when the profile is consistent.
std::optional<std::string> find_inconsistency(const Profile& profile);
// The same for one rank's records in a run of `ranks` ranks and `graph` (not its rank number).
std::optional<std::string> find_inconsistency(const RankRecords& records, const ProgramGraph& graph,
                                              std::int32_t ranks);

} // namespace vcmon::tables::detail
