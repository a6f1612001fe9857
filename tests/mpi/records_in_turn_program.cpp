// RecordsInTurn (the profile's collection at rank 0, the query snapshot's at any root) under real
// MPICH ranks, its limits shrunk to a window of 1 rank and chunks of 7 bytes so that 4 small
// ranks reach both edges: every rank's bytes must reach the root whole and in order, a rank with
// none must not hang, and a rank must not send while another is being received. Collected at
// rank 0, then at the last rank. Plain MPICH (no libvcmon); exit status 0 when all holds, each
// problem printed by the root.
#include "core/ProfileTags.hpp"
#include "core/RecordsInTurn.hpp"
#include "sleep_ms.h"

#include <mpi.h>

#include <cstdio>
#include <ctime>
#include <vector>

namespace {

using vcmon::runtime::collect_in_turn;
using vcmon::runtime::InTurnLimits;

constexpr int kHoldMs = 50;

// Rank 2 has nothing to send; the others a few chunks and a partial one.
std::uint64_t size_of(int rank) {
  return rank == 2 ? 0 : 5 + 13 * static_cast<std::uint64_t>(rank);
}

std::byte byte_of(int rank, std::uint64_t at) {
  return static_cast<std::byte>((rank * 31 + at) & 0xff);
}

} // namespace

// Collects every rank's bytes at `root` and checks them there; the number of problems found.
int collected_at(int root, int rank, int size) {
  std::vector<std::byte> mine(size_of(rank));
  for (std::uint64_t i = 0; i < mine.size(); ++i) {
    mine[i] = byte_of(rank, i);
  }
  std::vector<std::uint64_t> sizes;
  for (int r = 0; rank == root && r < size; ++r) {
    sizes.push_back(size_of(r));
  }
  std::vector<std::vector<std::byte>> received(static_cast<std::size_t>(size));
  int problems = 0;
  const InTurnLimits limits{.chunk_bytes = 7, .ranks_in_flight = 1};
  collect_in_turn(
      MPI_COMM_WORLD, root, mine, sizes,
      [&](int from, std::uint64_t offset, std::span<const std::byte> chunk) {
        std::vector<std::byte>& bytes = received[static_cast<std::size_t>(from)];
        if (offset != bytes.size() || chunk.size() > limits.chunk_bytes) {
          std::printf("rank %d: chunk of %zu bytes at %llu after %zu bytes\n", from, chunk.size(),
                      static_cast<unsigned long long>(offset), bytes.size());
          ++problems;
        }
        bytes.insert(bytes.end(), chunk.begin(), chunk.end());
        if (from == 1 && offset == 0) {
          sleep_ms(kHoldMs); // rank 1 is being received: with a window of 1, rank 3 waits
        }
      },
      limits);
  // A sender finishes as soon as it is asked (its chunks are small): when each rank finished
  // tells when it was asked. One node, one monotonic clock.
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  const double finished_ms = static_cast<double>(now.tv_sec) * 1e3 + now.tv_nsec / 1e6;
  std::vector<double> finished(static_cast<std::size_t>(size));
  MPI_Gather(&finished_ms, 1, MPI_DOUBLE, finished.data(), 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
  if (rank == root) {
    if (root == 0 && finished[3] - finished[1] < kHoldMs * 0.8) {
      std::printf("rank 3 finished %.1f ms after rank 1, which rank 0 held %d ms: it was asked "
                  "while rank 1 was being received, a window wider than 1\n",
                  finished[3] - finished[1], kHoldMs);
      ++problems;
    }
    for (int r = 0; r < size; ++r) {
      if (r == root) {
        continue;
      }
      std::vector<std::byte> expected(size_of(r));
      for (std::uint64_t i = 0; i < expected.size(); ++i) {
        expected[i] = byte_of(r, i);
      }
      if (received[static_cast<std::size_t>(r)] != expected) {
        std::printf("rank %d: %zu bytes arrived, not its %zu\n", r,
                    received[static_cast<std::size_t>(r)].size(), expected.size());
        ++problems;
      }
    }
    std::printf("root %d: %d problems\n", root, problems);
  }
  return problems;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int problems = collected_at(0, rank, size) + collected_at(size - 1, rank, size);
  MPI_Finalize();
  return problems == 0 ? 0 : 1;
}
