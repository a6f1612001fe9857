// Profiles with known answers for the report tests, built through the ProgramGraph API.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstdint>

namespace vcmon::report::testing {

// The paper's figure 12 (docs/design.md, "Sites and the program graph") in fig12.c, run on 4 ranks;
// p4, called in loop2, dominates. Rank r's times are the base times scaled by (1 + r/10), so rank 3
// is the slowest.
tables::Profile figure12_profile();
// The base times of figure 12's records in microseconds, before the per-rank scaling.
inline constexpr double kFig12Main = 850, kFig12P1 = 310, kFig12P2 = 520, kFig12P3ViaP1 = 300,
                        kFig12P3ViaP2 = 500, kFig12Loop1 = 700, kFig12Loop2 = 610,
                        kFig12P4InLoop = 600, kFig12P4Direct = 50, kFig12E1 = 40, kFig12E2 = 60;
double fig12_scale(int rank);
// Figure 12 with p4 called `calls` times per rank in loop2 in the same time (small and very
// frequent: 600 us x (1 + r/10) over 1e6 calls is 0.6 to 0.78 ns per call).
tables::Profile figure12_frequent_p4(std::uint64_t calls);

// fact calls itself (fact.c): main -> fact (line 2) -> fact (line 4, recursive); one rank.
tables::Profile factorial_profile();
// is_even and is_odd call each other (parity.c); is_odd holds a barrier; one rank.
tables::Profile even_odd_profile();
// a -> b -> c -> a, and a -> c directly (cycle.c): one component reached along two paths.
tables::Profile triangle_profile();

} // namespace vcmon::report::testing
