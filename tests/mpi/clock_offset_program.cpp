// ClockOffset::measure between real ranks of one host (docs/runtime.md, "Clock offsets").
// Every rank keeps a clock as libvcmon does (a calibrated source and a VirtualClock); ranks
// other than 0 calibrate for 10 µs only, so their own rates are off by up to 1e-3, a drift
// of tens of µs in the 300 ms this runs. Checks, each failure printed (exit 1):
//   - rank 0's offset is 0;
//   - moving a rank's clock by a known amount moves its offset by that amount, to 1 µs;
//   - 300 ms later the offset is unchanged, to 1 µs: the rank reads at its leader's rate;
//   - the offset agrees with the round-trip estimate (VCMON_TEST_ESTIMATE_OFFSETS' path) to
//     within 5 ms, that estimate's error on a loaded host.
#include "mpi/clock/ClockOffset.hpp"

#include "vcmon/vclock/ClockSource.hpp"
#include "vcmon/vclock/VirtualClock.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

using vcmon::runtime::mpi::ClockOffset;
using vcmon::vclock::ClockSource;
using vcmon::vclock::VirtualClock;

namespace {

int failures = 0;

void expect_near(int rank, const char* what, std::int64_t actual, std::int64_t expected,
                 std::int64_t tolerance) {
  const std::int64_t error = actual - expected;
  std::printf("rank %d: %s: %lld ns, expected %lld ± %lld\n", rank, what,
              static_cast<long long>(actual), static_cast<long long>(expected),
              static_cast<long long>(tolerance));
  if (error > tolerance || error < -tolerance) {
    std::printf("rank %d: FAILED: %s off by %lld ns\n", rank, what, static_cast<long long>(error));
    ++failures;
  }
}

} // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ClockSource source = ClockSource::calibrate(rank == 0 ? 5'000'000 : 10'000);
  VirtualClock clock(source);

  const std::int64_t first = ClockOffset::measure(MPI_COMM_WORLD, source, clock, false);
  if (rank == 0) {
    expect_near(rank, "rank 0's offset", first, 0, 0);
  }
  const std::int64_t shift = rank * 1'000'000'123LL;
  clock.advance(shift);
  const std::int64_t shifted = ClockOffset::measure(MPI_COMM_WORLD, source, clock, false);
  expect_near(rank, "offset after a shift, minus the first", shifted - first, shift, 1'000);

  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const std::int64_t later = ClockOffset::measure(MPI_COMM_WORLD, source, clock, false);
  expect_near(rank, "offset 300 ms later, minus the one before", later - shifted, 0, 1'000);

  const std::int64_t estimated = ClockOffset::measure(MPI_COMM_WORLD, source, clock, true);
  expect_near(rank, "round-trip estimate, minus the offset", estimated - later, 0, 5'000'000);

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return total == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
