// Profiles for the --diff tests, derived from figure 12 (tests/report/ReportProfiles.hpp).
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstdint>

namespace vcmon::report::testing {

// Figure 12 with p4 (both activations, every rank) `factor` times slower, its ancestors'
// records grown by the same time: loop2 and loop1 by the in-loop activation's growth, p3's two
// activations (and p1, p2) in their 3:5 proportion, so apportioning is unchanged, main and the
// ranks' virtual time by the whole growth.
tables::Profile figure12_slow_p4(double factor);
// Figure 12 with a procedure p5 (fig12.c:20) called from main at fig12.c:16 taking `p5_us`
// microseconds on every rank, main grown to match.
tables::Profile figure12_with_p5(double p5_us);
// `profile` with every site id shifted by one (an unused procedure first), as another build
// of the same source might number them.
tables::Profile renumbered(const tables::Profile& profile);
// Figure 12 keeping only the first `ranks` ranks.
tables::Profile figure12_ranks(std::int32_t ranks);

} // namespace vcmon::report::testing
