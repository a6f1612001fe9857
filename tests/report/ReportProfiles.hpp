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

// Appends a context under `parent` (a position returned before, or 0 at the top) and returns
// its position for its children.
std::uint32_t context(tables::RankRecords& rec, std::uint32_t parent, tables::SiteId site,
                      std::uint64_t count, std::uint64_t time_ns = 0, std::uint64_t iterations = 0,
                      std::uint64_t sync_delay_ns = 0, std::uint64_t bytes = 0);
// The site at `line` (throws if there is none).
const tables::Site& site_at(const tables::ProgramGraph& graph, std::uint32_t line);
// Figure 12 with p4 called `calls` times per rank in loop2 in the same time (small and very
// frequent: 600 us x (1 + r/10) over 1e6 calls is 0.6 to 0.78 ns per call).
tables::Profile figure12_frequent_p4(std::uint64_t calls);

// Figure 12 with its calling contexts, as a format-6 run writes them: each record of p3's
// sites split between p3 called by p1 and p3 called by p2, the parts summing to the per-site
// records of figure12_profile(). Base microseconds of the contexts below p3 (p2's part is the
// per-site record minus p1's), before the per-rank scaling:
inline constexpr double kFig12CtxP4DirectViaP1 = 20, kFig12CtxLoop1ViaP1 = 250,
                        kFig12CtxLoop2ViaP1 = 215, kFig12CtxP4InLoopViaP1 = 210;
tables::Profile figure12_context_profile();
// The ten-times case of issue 13 on 3 ranks (work.c): main calls work(10 n) at line 2 and
// work(n) at line 3; work's loop (line 6) runs n or 10 n iterations, each an MPI_Allreduce
// (line 7); main ends with an MPI_Barrier (line 4). Rank r's times are the base ones times
// (1 + r). With calling contexts unless `contexts` is false.
tables::Profile two_callers_profile(bool contexts = true);
inline constexpr double kWorkHeavy = 1000, kWorkLight = 100; // us, work called at line 2 / 3
inline constexpr std::uint64_t kWorkIterations = 40;         // n

// fact calls itself (fact.c): main -> fact (line 2) -> fact (line 4, recursive); one rank.
tables::Profile factorial_profile();
// is_even and is_odd call each other (parity.c); is_odd holds a barrier; one rank.
tables::Profile even_odd_profile();
// a -> b -> c -> a, and a -> c directly (cycle.c): one component reached along two paths.
tables::Profile triangle_profile();

// RANKS ranks in a ring: rank r sends 10 messages of 10 * (r + 1) bytes to rank r + 1 (the last
// to rank 0) in (r + 1) us: the costliest pair is the last rank's.
tables::Profile ring_profile(std::int32_t ranks);

} // namespace vcmon::report::testing
