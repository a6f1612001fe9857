// Every rank's bytes brought to one rank in turn: the profile where MPI-IO cannot write it in
// place (VCMON_PROFILE_IO=gather, or a file system MPI-IO does not support), and the query API's
// collective snapshot. The root tells a few ranks at a time to send, each sends its bytes in
// chunks, and the root hands each chunk on (to the file, to a decoder) as it arrives. The root
// never holds more than InTurnLimits::ranks_in_flight chunks, and no message or count exceeds
// InTurnLimits::chunk_bytes, whatever the job's size: never one gather of everything.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

namespace vcmon::runtime {

// How much the root takes in at once: at most `ranks_in_flight` ranks sending, each one chunk
// of at most `chunk_bytes` at a time. Tests shrink them to reach the window's and the chunks'
// edges with a few small ranks.
struct InTurnLimits {
  std::size_t chunk_bytes = std::size_t{4} << 20;
  int ranks_in_flight = 8;
};

// Called on the root with `rank`'s bytes from `offset` within them, in order for each rank.
using ChunkSink =
    std::function<void(int rank, std::uint64_t offset, std::span<const std::byte> chunk)>;

// Collective over `comm`. Every rank but `root` sends `mine` when the root asks for it; the
// root, which passes every rank's size in `sizes` (its own is not collected), gives each chunk
// to `sink`, which must not throw (the other ranks would wait for their turn forever).
void collect_in_turn(MPI_Comm comm, int root, std::span<const std::byte> mine,
                     std::span<const std::uint64_t> sizes, const ChunkSink& sink,
                     const InTurnLimits& limits = {});

} // namespace vcmon::runtime
