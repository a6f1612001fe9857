// How the control channel's messages travel between world ranks (ControlExchange): the runtime's
// over MPI (MpiControlTransport), a test's in-process. Messages are words (ControlMessages); each
// kind is taken in the order it arrived, from any rank.
#pragma once

#include <cstdint>
#include <span>

namespace vcmon::runtime::mpi {

class ControlTransport {
public:
  enum class Kind : int { StateRequest, StateReply, NullMessage };

  virtual ~ControlTransport() = default;

  // Sends `words` (no longer than the longest message of `kind`, ControlMessages) to world rank
  // `rank`. Any thread may send.
  virtual void send(Kind kind, int rank, std::span<const std::uint64_t> words) = 0;
  // The next message of `kind` that has arrived, from any rank: its sender, with its words in
  // `words` until the next call for `kind`; -1 when none has. One thread at a time per kind.
  // The serve path calls it in every wait loop: finding nothing allocates nothing.
  virtual int next(Kind kind, std::span<const std::uint64_t>& words) = 0;

  // The last exchange, at MPI_Finalize (collective): sends each rank its share of `told` (the
  // same number of words for every rank, in rank order) and receives each rank's share for this
  // one into `heard`, in rank order. Neither may be touched until all_to_all_done().
  virtual void start_all_to_all(std::span<const std::uint64_t> told,
                                std::span<std::uint64_t> heard) = 0;
  virtual bool all_to_all_done() = 0;
  // After the last exchange, when nothing more is owed: stops receiving. A message that arrived
  // all the same is reported (an error of the protocol, which a test must catch).
  virtual void close() = 0;
};

} // namespace vcmon::runtime::mpi
