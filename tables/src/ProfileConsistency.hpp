// What makes a profile self-consistent: ranks sorted and within the run, every record naming
// a site of the right kind, every partner a rank of the run. The encoder refuses and the
// decoder rejects profiles that are not.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace vcmon::tables::detail {

// The first inconsistency found, or nothing when the profile is consistent.
std::optional<std::string> find_inconsistency(const Profile& profile);
// The same for one rank's records in a run of `ranks` ranks and `graph` (not its rank number).
std::optional<std::string> find_inconsistency(const RankRecords& records, const ProgramGraph& graph,
                                              std::int32_t ranks);
// The contexts' part of it, for a rank's contexts `first` to `first` + contexts.size() - 1
// (the last part checked: a rank's other problems come first).
std::optional<std::string> find_inconsistency(std::span<const ContextRecord> contexts,
                                              std::size_t first, const ProgramGraph& graph);

} // namespace vcmon::tables::detail
