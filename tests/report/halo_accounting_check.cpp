// The accounting rule (docs/runtime.md, "Accounting") on the halo exchange's profile
// (halo_program.c): rank 0 waits 3 x 20 ms for rank 1 in MPI_Waitall. Checks that the waiting
// is MPI_Waitall's, per partner, that each MPI_Irecv holds only its own time with its
// messages' count and bytes, and that each MPI_Isend holds its own time. A GoogleTest program
// (CheckerArguments.hpp):
//   halo_accounting_check --gtest_filter=HaloAccounting.WaitallHoldsTheWaiting DIRECTORY
//   halo_accounting_check --gtest_filter=HaloAccounting.NonblockingCallsCountInTheirCallingContexts
//   DIRECTORY
//   (DIRECTORY holding the one profile of the run)
#include "CheckerArguments.hpp"
#include "CheckerProfiles.hpp"

#include "vcmon/tables/Profile.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

using namespace vcmon::tables;
using namespace vcmon::checkers;

namespace {

struct Totals {
  std::uint64_t time_ns = 0; // transmission + sync delay
  std::uint64_t sync_ns = 0;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
  int sites = 0;
};

// Rank `rank`'s records of the instrumented statements named `function`, summed.
Totals statements(const Profile& profile, int rank, const std::string& function) {
  Totals totals;
  for (const RankRecords& records : profile.ranks) {
    if (records.rank != rank) {
      continue;
    }
    for (const ComRecord& com : records.coms) {
      const Site& site = profile.graph.site(com.comm);
      if (site.name == function && !site.pos.file.empty()) {
        totals.time_ns += com.transmission_ns + com.sync_delay_ns;
        totals.sync_ns += com.sync_delay_ns;
        totals.count += com.count;
        totals.bytes += com.bytes;
        ++totals.sites;
      }
    }
  }
  return totals;
}

double ms(std::uint64_t ns) {
  return static_cast<double>(ns) / 1e6;
}

// "rank R FUNCTION: time ... ms, sync ... ms, count N, bytes B", printed and returned for the
// expectations' messages.
std::string describe(int rank, const char* function, const Totals& t) {
  char line[256];
  std::snprintf(line, sizeof line, "rank %d %s: time %.3f ms, sync %.3f ms, count %llu, bytes %llu",
                rank, function, ms(t.time_ns), ms(t.sync_ns),
                static_cast<unsigned long long>(t.count), static_cast<unsigned long long>(t.bytes));
  std::printf("%s\n", line);
  return line;
}

TEST(HaloAccounting, WaitallHoldsTheWaiting) {
  Profile profile;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), profile));
  constexpr int kSteps = 3;
  constexpr double kWorkMs = 20;
  // The nonblocking calls' own time over all steps: microseconds, up to a few ms when the
  // rank is descheduled inside one (ASan, a loaded machine); their waits would be 60-120 ms.
  constexpr double kOwnMs = kWorkMs / 2;
  const Totals waitall = statements(profile, 0, "MPI_Waitall");
  const std::string waitall_line = describe(0, "MPI_Waitall", waitall);
  // Rank 0 waited for rank 1's work in every step (a little less: rank 1 starts first), and
  // MPI_Waitall holds that time. How much of it is synchronisation delay rather than
  // transmission depends on when each rank ran: a sender descheduled between stamping its
  // message and sending it makes that step's wait transmission (a loaded machine, CI). So the
  // whole wait is bounded, and at least one step's must be synchronisation delay.
  EXPECT_GE(waitall.time_ns, static_cast<std::uint64_t>(0.8 * kSteps * kWorkMs * 1e6))
      << waitall_line << "\nexpected rank 0's MPI_Waitall to hold the waiting for rank 1";
  EXPECT_GE(waitall.sync_ns, static_cast<std::uint64_t>(0.8 * kWorkMs * 1e6))
      << waitall_line << "\nexpected rank 0's MPI_Waitall to wait for rank 1's sends";
  EXPECT_GE(waitall.count, 2u * kSteps)
      << waitall_line << "\nexpected rank 0's MPI_Waitall to complete each receive and send";
  for (int rank = 0; rank < 2; ++rank) {
    const Totals irecv = statements(profile, rank, "MPI_Irecv");
    const std::string irecv_line = describe(rank, "MPI_Irecv", irecv);
    EXPECT_EQ(irecv.sites, 2) << irecv_line << "\nexpected two MPI_Irecv statements";
    EXPECT_EQ(irecv.count, 2u * kSteps) << irecv_line << "\nexpected MPI_Irecv's messages";
    EXPECT_EQ(irecv.bytes, 2 * kSteps * sizeof(double))
        << irecv_line << "\nexpected MPI_Irecv's messages' bytes";
    EXPECT_EQ(irecv.sync_ns, 0u) << irecv_line << "\nexpected no waiting in MPI_Irecv";
    EXPECT_LT(ms(irecv.time_ns), kOwnMs)
        << irecv_line << "\nexpected MPI_Irecv to hold only its own time";
    const Totals isend = statements(profile, rank, "MPI_Isend");
    const std::string isend_line = describe(rank, "MPI_Isend", isend);
    EXPECT_EQ(isend.count, 2u * kSteps) << isend_line << "\nexpected MPI_Isend's messages";
    EXPECT_LT(ms(isend.time_ns), kOwnMs)
        << isend_line << "\nexpected MPI_Isend to hold only its own time";
  }
}

// A nonblocking receive's record is added when it completes, after its statement closed: its
// calling context still holds it, as the statement's site record does. Before, only the site
// record did, and every MPI_Irecv of the top-down tree read count 0, 0 B, "several contexts"
// (HPCCG, LULESH, the halo exchange alike).
TEST(HaloAccounting, NonblockingCallsCountInTheirCallingContexts) {
  Profile profile;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), profile));
  for (const RankRecords& records : profile.ranks) {
    for (const char* function : {"MPI_Irecv", "MPI_Isend"}) {
      Totals in_sites;
      Totals in_contexts;
      for (const ComRecord& com : records.coms) {
        const Site& site = profile.graph.site(com.comm);
        if (site.name == function && !site.pos.file.empty()) {
          in_sites.count += com.count;
          in_sites.bytes += com.bytes;
        }
      }
      for (const ContextRecord& context : records.contexts) {
        if (context.site >= profile.graph.size()) {
          continue; // the root, MPI functions outside statements
        }
        const Site& site = profile.graph.site(context.site);
        if (site.name == function && !site.pos.file.empty()) {
          in_contexts.count += context.count;
          in_contexts.bytes += context.bytes;
        }
      }
      const std::string line = describe(records.rank, function, in_contexts);
      EXPECT_GT(in_sites.count, 0u) << line;
      EXPECT_EQ(in_contexts.count, in_sites.count) << line << "\nexpected the sites' count";
      EXPECT_EQ(in_contexts.bytes, in_sites.bytes) << line << "\nexpected the sites' bytes";
    }
  }
}

} // namespace
