// Several profiles of one program reported as one job (vcmon-report --merge): the ranks of
// every profile side by side, numbered in the order the profiles are given (docs/report.md,
// "Several profiles").
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vcmon::report {

// Where one profile's ranks went: its rank r is rank first_rank + r of the merged job.
struct MergedPart {
  std::string name; // the file, as the user named it
  std::int32_t first_rank = 0;
  std::int32_t ranks = 0; // the ranks of its run (RunMetadata::ranks)
};

struct MergedProfile {
  tables::Profile profile;
  std::vector<MergedPart> parts;
};

// Appends `profile` (read from `name`) to `merged`: its ranks and their partners are shifted by
// the ranks already merged, its hosts added, the run's span widened. Throws ReportError, naming
// both files, when its static tables differ from those merged so far (another program, or
// another build of it).
void append_profile(MergedProfile& merged, std::string name, tables::Profile&& profile);

} // namespace vcmon::report
