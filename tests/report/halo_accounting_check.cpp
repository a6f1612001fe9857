// The accounting rule (docs/runtime.md, "Accounting") on the halo exchange's profile
// (halo_program.c): rank 0 waits 3 x 20 ms for rank 1 in MPI_Waitall. Checks that the waiting
// is MPI_Waitall's, per partner, that each MPI_Irecv holds only its own time with its
// messages' count and bytes, and that each MPI_Isend holds its own time. Usage:
//   halo_accounting_check DIRECTORY   (holding the one profile of the run)
#include "ProfileInDirectory.hpp"

#include "vcmon/tables/Profile.hpp"

#include <cstdio>
#include <exception>
#include <string>

using namespace vcmon::tables;

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

bool expect(bool ok, const char* what, const Totals& t) {
  std::printf("%s %s: time %.3f ms, sync %.3f ms, count %llu, bytes %llu\n", ok ? "ok  " : "FAIL",
              what, ms(t.time_ns), ms(t.sync_ns), static_cast<unsigned long long>(t.count),
              static_cast<unsigned long long>(t.bytes));
  return ok;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]);
    return 2;
  }
  try {
    const Profile profile = vcmon::testing::the_profile_in(argv[1]);
    constexpr int kSteps = 3;
    constexpr double kWorkMs = 20;
    // The nonblocking calls' own time over all steps: microseconds, up to a few ms when the
    // rank is descheduled inside one (ASan, a loaded machine); their waits would be 60-120 ms.
    constexpr double kOwnMs = kWorkMs / 2;
    bool ok = true;
    const Totals waitall = statements(profile, 0, "MPI_Waitall");
    // Rank 0 waited for rank 1's work in every step (a little less: rank 1 starts first).
    ok &= expect(waitall.sync_ns >= static_cast<std::uint64_t>(0.8 * kSteps * kWorkMs * 1e6) &&
                     waitall.count >= 2 * kSteps,
                 "rank 0 MPI_Waitall waits, for each receive", waitall);
    for (int rank = 0; rank < 2; ++rank) {
      const Totals irecv = statements(profile, rank, "MPI_Irecv");
      ok &= expect(irecv.sites == 2 && irecv.count == 2 * kSteps &&
                       irecv.bytes == 2 * kSteps * sizeof(double) && irecv.sync_ns == 0 &&
                       ms(irecv.time_ns) < kOwnMs,
                   rank == 0 ? "rank 0 MPI_Irecv holds its own time and its messages"
                             : "rank 1 MPI_Irecv holds its own time and its messages",
                   irecv);
      const Totals isend = statements(profile, rank, "MPI_Isend");
      ok &= expect(isend.count == 2 * kSteps && ms(isend.time_ns) < kOwnMs,
                   rank == 0 ? "rank 0 MPI_Isend holds its own time"
                             : "rank 1 MPI_Isend holds its own time",
                   isend);
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("UNREADABLE: %s: %s\n", argv[1], e.what());
    return 1;
  }
}
